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

// Created on first use, not when the module loads: the first Intl formatter a page makes loads the
// browser's locale data, about 25 ms of the core chunk's evaluation on this machine's Chromium (100 ms
// at Lighthouse's 4x slowdown), and most pages only show integers, which need no Intl (issue 13).
let numberFormat: Intl.NumberFormat | undefined;
export function formatCount(n: number): string {
  // Most counts on a page (replies, likes, views) are small; they need no grouping, and Intl's
  // formatter costs more than the rest of a card's render (issue 13).
  if (Number.isInteger(n) && (n > 0 || Object.is(n, 0)) && n < 1000) return String(n);
  // A larger safe integer is grouped in threes with commas, exactly as en-US writes it.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return groupThousands(n);
  numberFormat ??= new Intl.NumberFormat("en-US");
  return numberFormat.format(n);
}

function groupThousands(n: number): string {
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += "," + digits.slice(i, i + 3);
  return n < 0 ? "-" + out : out;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
