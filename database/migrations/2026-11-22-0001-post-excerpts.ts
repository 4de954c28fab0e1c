import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Discussions and questions keep their teaser in an `excerpt` column, made when the post is
 * written instead of on every page view (ADR 0012). Existing rows are filled here, with a copy of
 * the excerpt function as it was on this date: a migration may not import app code, and its result
 * must not change when the app's function does later.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["discussion", "question"]) {
    await db.schema.alterTable(table).addColumn("excerpt", "text", (c) => c.notNull().defaultTo("")).execute();
    // In batches by id, so a large forum never holds every body in memory at once.
    for (let after = 0; ; ) {
      const rows: { id: number; body: string }[] = await db
        .selectFrom(table)
        .select(["id", "body"])
        .where("id", ">", after)
        .orderBy("id")
        .limit(500)
        .execute();
      if (rows.length === 0) break;
      for (const row of rows) {
        await db.updateTable(table).set({ excerpt: excerptOf(row.body) }).where("id", "=", row.id).execute();
      }
      after = Number(rows[rows.length - 1].id);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("question").dropColumn("excerpt").execute();
  await db.schema.alterTable("discussion").dropColumn("excerpt").execute();
}

// ---------------------------------------------------------------- app/lib/text.ts, 2026-11-22

function excerptOf(markdown: string, max = 160): string {
  const plain = stripMarks(linkTexts(linkTexts(withoutFences(markdown), "!["), "["));
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function nextFinder(text: string, needle: string) {
  let found = -2;
  return (from: number) => {
    if (found === -1) return -1;
    if (found < from) found = text.indexOf(needle, from);
    return found;
  };
}

function withoutFences(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const open = text.indexOf("```", at);
    if (open === -1) break;
    const close = text.indexOf("```", open + 3);
    if (close === -1) break;
    out += `${text.slice(at, open)} `;
    at = close + 3;
  }
  return out + text.slice(at);
}

function linkTexts(text: string, opener: "![" | "["): string {
  const nextOpener = nextFinder(text, opener);
  const nextBracket = nextFinder(text, "]");
  const nextParen = nextFinder(text, ")");
  let out = "";
  let at = 0;
  let from = 0;
  for (;;) {
    const start = nextOpener(from);
    if (start === -1) break;
    const labelStart = start + opener.length;
    const bracket = nextBracket(labelStart);
    if (bracket === -1) break;
    const paren = text.charCodeAt(bracket + 1) === 40 ? nextParen(bracket + 2) : -1;
    if (paren === -1) {
      from = start + 1;
      continue;
    }
    out += text.slice(at, start) + text.slice(labelStart, bracket);
    at = from = paren + 1;
  }
  return out + text.slice(at);
}

function stripMarks(text: string): string {
  return text
    .replace(/[*_`~#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
