import fs from "node:fs";
import path from "node:path";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { mergeClasses } from "./class-merge";

/** Every space-free word in a string literal of the client code (classes, and some words that are not). */
function wordsInApp(): string[] {
  const words = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".server") walk(file);
      } else if (entry.name.endsWith(".tsx")) {
        const source = fs.readFileSync(file, "utf8");
        for (const m of source.matchAll(/"([^"\n]*)"|`([^`\n]*)`/g)) {
          for (const word of (m[1] ?? m[2]).split(/\s+/)) if (/^[a-z!\-[][^\s${}]*$/.test(word)) words.add(word);
        }
      }
    }
  };
  walk(path.resolve(import.meta.dirname, ".."));
  return [...words].sort();
}

describe("mergeClasses", () => {
  it("merges like tailwind-merge for every pair of words written in app/", () => {
    const words = wordsInApp();
    expect(words.length).toBeGreaterThan(300);
    const differences: string[] = [];
    for (const a of words) {
      for (const b of words) {
        const pair = `${a} ${b}`;
        const ours = mergeClasses(pair);
        const theirs = twMerge(pair);
        if (ours !== theirs) differences.push(`"${pair}": ${ours} / ${theirs}`);
      }
    }
    expect(differences.length, differences.slice(0, 30).join("\n")).toBe(0);
    // Half a million pairs through both mergers: ~19 s on a loaded 2-core machine, near the default 20.
  }, 60_000);

  it("lets the later class of a kind win and keeps the rest in order", () => {
    expect(mergeClasses("rounded-xl border border-line p-6 border-warrior p-5")).toBe("rounded-xl border border-warrior p-5");
    expect(mergeClasses("p-6 px-4")).toBe("p-6 px-4");
    expect(mergeClasses("px-4 p-6")).toBe("p-6");
    expect(mergeClasses("text-sm text-muted text-lg")).toBe("text-muted text-lg");
    expect(mergeClasses("hidden md:flex flex")).toBe("md:flex flex");
    expect(mergeClasses("w-[calc(100%-2rem)] w-full")).toBe("w-full");
  });
});
