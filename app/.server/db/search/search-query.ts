/**
 * What a member typed into the search field, read once into terms that both engines compile to
 * their own syntax (ADR 0063). The member never writes FTS5 or tsquery syntax: every word is quoted
 * by the compiler, so `NEAR(`, `:`, `*` alone, SQL or an unbalanced quote is just text, and any
 * query string compiles to a valid query or to none.
 *
 *   meditation breath     both words (stems: "meditating" finds "meditation")
 *   "cold shower"         the words next to each other
 *   medit*                a word beginning so
 *   -running              without that word (needs at least one word to find)
 *
 * A word is a run of letters, digits and combining marks in any script; anything else separates
 * words, and a run such as "self-discipline" is the phrase "self discipline", as the index splits it.
 */

export interface SearchTerm {
  /** One word, or the words of a phrase in order. */
  words: string[];
  /** The last word may be the beginning of a longer one. */
  prefix: boolean;
  negated: boolean;
}

/** Terms past these are dropped: they make a query slower, never better. */
const MAX_TERMS = 12;
const MAX_WORDS = 12;
const MAX_WORD_LENGTH = 60;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).slice(0, MAX_WORDS).map((w) => w.slice(0, MAX_WORD_LENGTH).toLowerCase());
}

/**
 * The terms of a query, the ones to find first. A query whose terms are all negated finds nothing
 * to start from, so it has no terms at all (the page asks for a word).
 */
export function parseSearchQuery(query: string): SearchTerm[] {
  // Control characters (NUL included) are no part of any word.
  const text = query.replace(/[\p{Cc}\p{Cs}]/gu, " ");
  const terms: SearchTerm[] = [];
  let at = 0;
  while (at < text.length && terms.length < MAX_TERMS) {
    const char = text[at]!;
    if (/\s/u.test(char)) {
      at++;
      continue;
    }
    const negated = char === "-" && text[at + 1] !== undefined && !/\s/u.test(text[at + 1]!);
    const start = negated ? at + 1 : at;
    let raw: string;
    let prefix = false;
    if (text[start] === '"') {
      // A phrase runs to the next quote, or to the end when the quote is never closed.
      const close = text.indexOf('"', start + 1);
      const end = close === -1 ? text.length : close;
      raw = text.slice(start + 1, end);
      at = close === -1 ? text.length : close + 1;
      if (text[at] === "*") {
        prefix = true;
        at++;
      }
    } else {
      let end = start;
      while (end < text.length && !/\s/u.test(text[end]!) && text[end] !== '"') end++;
      raw = text.slice(start, end);
      prefix = raw.endsWith("*");
      at = end;
    }
    const words = wordsOf(raw);
    if (words.length > 0) terms.push({ words, prefix, negated });
  }
  const found = terms.filter((t) => !t.negated);
  return found.length === 0 ? [] : [...found, ...terms.filter((t) => t.negated)];
}

/** The words a query looks for (not those it excludes), for matching names outside the index. */
export function wantedWords(terms: readonly SearchTerm[]): string[] {
  return terms.filter((t) => !t.negated).flatMap((t) => t.words);
}

/**
 * FTS5's syntax: every term a quoted string (the words hold no quote), `*` after a prefix, the
 * wanted terms ANDed in parentheses and each excluded one after NOT.
 */
export function fts5Query(terms: readonly SearchTerm[], match: "all" | "any" = "all"): string {
  const quoted = (t: SearchTerm) => `"${t.words.join(" ")}"${t.prefix ? "*" : ""}`;
  const wanted = terms.filter((t) => !t.negated).map(quoted);
  const excluded = terms.filter((t) => t.negated).map(quoted);
  return [`(${wanted.join(match === "all" ? " AND " : " OR ")})`, ...excluded.map((e) => `NOT ${e}`)].join(" ");
}

/**
 * PostgreSQL's tsquery syntax for `to_tsquery`: every word quoted (the words hold no quote or
 * backslash), `<->` between a phrase's words, `:*` after a prefix, `&` between terms and `!` before
 * an excluded one. The text-search configuration stems each word as it stems the documents.
 */
export function tsQuery(terms: readonly SearchTerm[], match: "all" | "any" = "all"): string {
  const compiled = (t: SearchTerm) => {
    const words = t.words.map((w, i) => `'${w}'${t.prefix && i === t.words.length - 1 ? ":*" : ""}`);
    return words.length === 1 ? words[0]! : `(${words.join(" <-> ")})`;
  };
  const wanted = terms.filter((t) => !t.negated).map(compiled);
  const excluded = terms.filter((t) => t.negated).map((t) => `!${compiled(t)}`);
  const found = match === "all" || wanted.length === 1 ? wanted.join(" & ") : `(${wanted.join(" | ")})`;
  return [found, ...excluded].join(" & ");
}

/**
 * What a title is about, as terms any of which may match (related posts, similar questions): its
 * words of three letters or more, short function words left out (PostgreSQL's configuration drops
 * them anyway; FTS5 would rank by them), at most eight.
 */
export function aboutTerms(title: string): SearchTerm[] {
  const words = [...new Set((title.match(WORD) ?? []).map((w) => w.toLowerCase()))].filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w));
  return words.slice(0, 8).map((w) => ({ words: [w.slice(0, MAX_WORD_LENGTH)], prefix: false, negated: false }));
}

const FUNCTION_WORDS = new Set(
  "the and for are but not you all any can had her was one our out has him his how its may new now old see two way who did get let put say she too use with that this from have what when your will there their they them then than been were which into more some about would could should after before being over such only also just very most other these those where while".split(
    " ",
  ),
);
