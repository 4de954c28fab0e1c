import type { Kysely } from "kysely";
import MarkdownIt from "markdown-it";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Every post keeps its body rendered to HTML in `body_html`, made when the body is written, so a
 * page view never runs the Markdown parser (ADR 0012: a hostile 20,000-character body costs tens
 * to a hundred milliseconds to render; paid once by its writer, not by every reader). Existing rows
 * are rendered here with the renderer's settings as they were on this date; a migration may not
 * import app code. The column stays nullable: rows written by other means (demo content, tests)
 * are rendered when read.
 */
const TABLES = ["discussion", "reply", "question", "answer", "creation", "creation_comment"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const md = renderer();
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn("body_html", "text").execute();
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
        await db.updateTable(table).set({ body_html: md.render(row.body) }).where("id", "=", row.id).execute();
      }
      after = Number(rows[rows.length - 1].id);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [...TABLES].reverse()) await db.schema.alterTable(table).dropColumn("body_html").execute();
}

// ---------------------------------------------------------------- app/.server/markdown.ts, 2026-11-22

function renderer() {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: true, breaks: false, maxNesting: 20 });
  const defaultLinkOpen =
    md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx].attrSet("rel", "nofollow ugc noopener noreferrer");
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return md;
}
