/**
 * Joins Tailwind class lists so that a later class wins over an earlier one of the same kind ("p-6 p-5"
 * gives "p-5", "p-6 px-4" keeps both, "border-line border-warrior" gives "border-warrior"). It knows
 * only the kinds of utility this site uses; tailwind-merge knew all of Tailwind for 9 KB gzip on every
 * page (issue 13, ADR 0029). class-merge.test.ts checks every pair of classes written in app/ against
 * tailwind-merge, so a new kind of class that needs a rule here fails that test.
 */

const SIZES = /^(xs|sm|base|lg|xl|\d+xl)$/;
const ALIGN = /^(left|center|right|justify|start|end)$/;
const WEIGHTS = /^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/;
const LINE_STYLES = /^(solid|dashed|dotted|double|hidden|none)$/;
const DISPLAY = new Set([
  "block",
  "inline-block",
  "inline",
  "flex",
  "inline-flex",
  "grid",
  "inline-grid",
  "hidden",
  "contents",
  "table",
  "flow-root",
  "list-item",
]);
const POSITION = new Set(["static", "fixed", "absolute", "relative", "sticky"]);
const DECORATION = new Set(["underline", "overline", "line-through", "no-underline"]);
const TRANSFORM = new Set(["uppercase", "lowercase", "capitalize", "normal-case"]);
const OVERFLOW_TEXT = new Set(["truncate", "text-ellipsis", "text-clip"]);

/** Utilities named "<prefix>-<value>" whose kind is their prefix (longest prefix first). */
const PREFIXES = [
  "pointer-events",
  "line-clamp",
  "translate-x",
  "translate-y",
  "underline-offset",
  "border-spacing",
  "grid-cols",
  "col-span",
  "overflow-x",
  "overflow-y",
  "scroll-mt",
  "backdrop-blur",
  "space-x",
  "space-y",
  "gap-x",
  "gap-y",
  "min-w",
  "min-h",
  "max-w",
  "max-h",
  "whitespace",
  "tracking",
  "leading",
  "rounded",
  "shadow",
  "opacity",
  "cursor",
  "select",
  "transition",
  "duration",
  "rotate",
  "overflow",
  "aspect",
  "object",
  "accent",
  "align",
  "shrink",
  "grow",
  "order",
  "break",
  "list",
  "fill",
  "size",
  "top",
  "right",
  "bottom",
  "left",
  "inset",
  "gap",
  "z",
  "w",
  "h",
  "mt",
  "mb",
  "ml",
  "mr",
  "mx",
  "my",
  "ms",
  "me",
  "m",
  "pt",
  "pb",
  "pl",
  "pr",
  "px",
  "py",
  "ps",
  "pe",
  "p",
];

/** A later class of the kind on the left also removes earlier classes of the kinds on the right. */
const OVERRIDES: Record<string, string[]> = {
  p: ["px", "py", "ps", "pe", "pt", "pr", "pb", "pl"],
  px: ["pr", "pl"],
  py: ["pt", "pb"],
  m: ["mx", "my", "ms", "me", "mt", "mr", "mb", "ml"],
  mx: ["mr", "ml"],
  my: ["mt", "mb"],
  gap: ["gap-x", "gap-y"],
  size: ["w", "h"],
  overflow: ["overflow-x", "overflow-y"],
  inset: ["top", "right", "bottom", "left"],
  "border-w": ["border-w-t", "border-w-r", "border-w-b", "border-w-l", "border-w-x", "border-w-y"],
  "font-size": ["leading"],
  flex: ["grow", "shrink"],
  // A line clamp sets display and overflow itself (as tailwind-merge has it, one way only).
  "line-clamp": ["display", "overflow"],
};

function kindOf(base: string): string | null {
  if (DISPLAY.has(base)) return "display";
  if (POSITION.has(base)) return "position";
  if (DECORATION.has(base)) return "decoration";
  if (TRANSFORM.has(base)) return "transform";
  if (OVERFLOW_TEXT.has(base)) return "text-overflow";
  if (base === "sr-only" || base === "not-sr-only") return "sr";
  if (base === "italic" || base === "not-italic") return "italic";
  const value = (prefix: string) => (base.startsWith(prefix + "-") ? base.slice(prefix.length + 1) : null);

  const text = value("text");
  if (text !== null) return SIZES.test(text) ? "font-size" : ALIGN.test(text) ? "text-align" : "text-color";
  const font = value("font");
  if (font !== null) return WEIGHTS.test(font) ? "font-weight" : "font-family";
  if (base === "border" || /^border-\d+$/.test(base)) return "border-w";
  const side = /^border-([trblxy])(-\d+)?$/.exec(base);
  if (side) return `border-w-${side[1]}`;
  const border = value("border");
  if (border !== null) {
    if (LINE_STYLES.test(border)) return "border-style";
    if (border === "collapse" || border === "separate") return "border-collapse";
    if (border.startsWith("spacing")) return "border-spacing";
    return "border-color";
  }
  if (value("bg") !== null) return "bg-color";
  for (const stop of ["from", "via", "to"]) if (value(stop) !== null) return `gradient-${stop}`;
  if (base === "flex-row" || base === "flex-col" || base === "flex-row-reverse" || base === "flex-col-reverse") return "flex-direction";
  if (base === "flex-wrap" || base === "flex-nowrap" || base === "flex-wrap-reverse") return "flex-wrap";
  if (value("flex") !== null) return "flex";
  if (base === "ring" || /^ring-\d+$/.test(base)) return "ring-w";
  if (value("ring") !== null) return "ring-color";
  if (value("outline-offset") !== null) return "outline-offset";
  if (base === "outline" || /^outline-\d+$/.test(base)) return "outline-w";
  const outline = value("outline");
  if (outline !== null) return LINE_STYLES.test(outline) ? "outline-style" : "outline-color";
  if (/^divide-[xy](-\d+)?$/.test(base)) return base.slice(0, 8);
  if (value("divide") !== null) return "divide-color";
  if (value("table") !== null) return "table-layout";
  const alignment = /^(items|justify|self|content)-(start|end|center|between|around|evenly|baseline|stretch|normal|auto)$/.exec(base);
  if (alignment) return alignment[1];
  if (["shadow", "rounded", "shrink", "grow", "backdrop-blur", "tabular-nums"].includes(base)) return base;
  const bare = base.startsWith("-") ? base.slice(1) : base;
  for (const prefix of PREFIXES) if (bare.startsWith(prefix + "-")) return prefix;
  return null;
}

/** Splits "sm:hover:p-4" into its variants ("sm:hover:") and its utility ("p-4"), brackets kept whole. */
function split(token: string): [string, string] {
  let depth = 0;
  let end = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token[i];
    if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") depth--;
    else if (c === ":" && depth === 0) end = i + 1;
  }
  return [token.slice(0, end), token.slice(end)];
}

/**
 * Merged lists by their input. Components pass the same few hundred class strings on every render,
 * and merging costs a scan per token, so server rendering would otherwise merge the same strings on
 * every request (a tenth of a page's CPU time). Bounded: cleared when full, so member-dependent
 * strings cannot grow it.
 */
const merged = new Map<string, string>();
const MERGED_MAX = 1000;

export function mergeClasses(classes: string): string {
  const known = merged.get(classes);
  if (known !== undefined) return known;
  const result = mergeUncached(classes);
  if (merged.size >= MERGED_MAX) merged.clear();
  merged.set(classes, result);
  return result;
}

/**
 * What a token conflicts on: its variants and importance with its kind ("sm:!|p"), and the slots it
 * also takes ("sm:!|px", …), or null for a class that conflicts with nothing. By token, because the
 * same few hundred tokens make up every list: a browser hydrating a page meets each list for the
 * first time, and classifying each token once instead of once per list halves its merging.
 */
const slotsByToken = new Map<string, string[] | null>();
const TOKENS_MAX = 5000;

function slotsOf(token: string): string[] | null {
  const known = slotsByToken.get(token);
  if (known !== undefined) return known;
  const [variants, utility] = split(token);
  const important = utility.startsWith("!") || utility.endsWith("!");
  const kind = kindOf(utility.replace(/^!|!$/g, ""));
  const key = `${variants}${important ? "!" : ""}|`;
  const slots = kind === null ? null : [kind, ...(OVERRIDES[kind] ?? [])].map((k) => key + k);
  if (slotsByToken.size >= TOKENS_MAX) slotsByToken.clear();
  slotsByToken.set(token, slots);
  return slots;
}

function mergeUncached(classes: string): string {
  const tokens = classes.split(/\s+/).filter(Boolean);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    const slots = slotsOf(token);
    if (slots === null) {
      kept.push(token);
      continue;
    }
    if (taken.has(slots[0])) continue;
    for (const slot of slots) taken.add(slot);
    kept.push(token);
  }
  return kept.reverse().join(" ");
}
