// A local ESLint rule: every linted file's name is kebab-case (STYLE.md), its dotted parts too
// ("reply-cards.server.tsx", "site-forum.test.ts"). A rule of our own rather than a plugin: it is
// ten lines, and one more package in tools/lint is one more thing to upgrade.
import path from "node:path";

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/;

export const kebabCaseFileNames = {
  meta: {
    type: "suggestion",
    docs: { description: "File names are kebab-case" },
    schema: [],
    messages: { notKebab: 'File name "{{name}}" is not kebab-case (lower-case words joined by "-", e.g. "reply-card.tsx").' },
  },
  create(context) {
    return {
      Program(node) {
        const name = path.basename(context.filename);
        const stem = name.slice(0, name.length - path.extname(name).length);
        if (!KEBAB.test(stem)) context.report({ node, messageId: "notKebab", data: { name } });
      },
    };
  },
};
