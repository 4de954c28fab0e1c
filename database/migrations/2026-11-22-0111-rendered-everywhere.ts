import type { Kysely } from "kysely";
import MarkdownIt from "markdown-it";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * No page renders Markdown any more (issue 13, ADR 0027): every post row gets its `body_html`
 * (rows that demo content and test factories wrote without it were rendered on each view), and
 * events store their description rendered as `description_html`. Rendered here with the renderer's
 * settings as they are on this date; a migration may not import app code.
 */
const POSTS = ["discussion", "reply", "question", "answer", "creation", "creation_comment"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const md = renderer();
  for (const table of POSTS) {
    await renderMissing(db, table, "body", "body_html", (source) => md.render(source));
  }
  await db.schema.alterTable("event").addColumn("description_html", "text").execute();
  await renderMissing(db, "event", "description", "description_html", (source) => md.render(source));
}

/** In batches by id, so a large forum never holds every body in memory at once. */
async function renderMissing(db: Kysely<any>, table: string, source: string, target: string, render: (source: string) => string) {
  for (let after = 0; ; ) {
    const rows: { id: number; text: string }[] = await db
      .selectFrom(table)
      .select(["id", `${source} as text`])
      .where(target, "is", null)
      .where("id", ">", after)
      .orderBy("id")
      .limit(500)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) await db.updateTable(table).set({ [target]: render(row.text) }).where("id", "=", row.id).execute();
    after = Number(rows[rows.length - 1].id);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("event").dropColumn("description_html").execute();
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
