import { clsx, type ClassValue } from "clsx";
import { mergeClasses } from "./class-merge";

/** Joins class names; later Tailwind classes win, so the caller's class goes last. */
export function cn(...inputs: ClassValue[]) {
  return mergeClasses(clsx(inputs));
}

export function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  const first = parts[0][0] ?? "";
  const last = parts.length > 1 ? (parts[parts.length - 1][0] ?? "") : "";
  return (first + last).toUpperCase();
}

const numberFormat = new Intl.NumberFormat("en-US");
export function formatCount(n: number): string {
  // Most counts on a page (replies, likes, views) are small; they need no grouping, and Intl's
  // formatter costs more than the rest of a card's render (issue 13).
  if (Number.isInteger(n) && (n > 0 || Object.is(n, 0)) && n < 1000) return String(n);
  return numberFormat.format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
