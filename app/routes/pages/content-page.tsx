import { createElement } from "react";
import { data } from "react-router";
import type { Route } from "./+types/content-page";
import { VirtueBadge } from "~/components/community/badges";
import { ProsePage, ProseSection } from "~/components/layout/prose-page";
import { useViewer } from "~/components/layout/use-viewer";
import { ButtonLink } from "~/components/ui/button";
import { contentPage, type Block, type HtmlBlock } from "~/.server/content/content-pages";

/*
 * Every page written in content/*.md (manifesto, FAQ, terms, privacy, code of conduct): routes.ts
 * mounts this one module at each of their paths. The Markdown was rendered when the server
 * started; the loader only looks the page up.
 */

export function loader({ pattern }: Route.LoaderArgs) {
  // The route's own pattern ("/faq", as routes.ts mounted it) names the file, never the address
  // the request came to: a client-side navigation asks for "/faq.data".
  const slug = pattern.replace(/^\/+|\/+$/g, "");
  const page = contentPage(slug);
  if (!page) throw data("Not found", { status: 404 });
  return page;
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData ? [{ title: `${loaderData.tabTitle} · Inner Peace. Outer Strength.` }, { name: "description", content: loaderData.description }] : [];

export default function ContentPage({ loaderData: page }: Route.ComponentProps) {
  return (
    <ProsePage
      title={page.title}
      lastUpdated={page.updated}
      lead={page.lead.length > 0 ? page.lead.map((block, i) => <Html key={i} block={block} />) : undefined}
    >
      {page.sections.map((section) => {
        // Buttons and questions lay themselves out, as the TSX pages' `plain` sections did.
        const plain = section.blocks.some((b) => b.kind === "buttons" || b.kind === "question");
        const questions = section.blocks.filter((b) => b.kind === "question");
        return (
          <ProseSection key={section.id} id={section.id} title={section.title} plain={plain}>
            {questions.length > 0 ? (
              <div className="space-y-3">
                {questions.map((q, i) => (
                  <Question key={i} question={q.question} blocks={q.blocks} />
                ))}
              </div>
            ) : (
              section.blocks.map((block, i) => <Part key={i} block={block} plain={plain} />)
            )}
          </ProseSection>
        );
      })}
    </ProsePage>
  );
}

/** Our own Markdown, rendered on the server from content/: trusted, never member text. */
function Html({ block, className }: { block: HtmlBlock; className?: string }) {
  return createElement(block.tag, { className, start: block.start, dangerouslySetInnerHTML: { __html: block.html } });
}

function Part({ block, plain }: { block: Block; plain: boolean }) {
  const member = useViewer() !== null;
  switch (block.kind) {
    case "html":
      return <Html block={block} className={plain && block.tag === "p" ? "max-w-prose leading-7" : undefined} />;
    case "virtues":
      return (
        <ul className="space-y-3">
          {block.items.map((item) => (
            <li key={item.virtue} className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:gap-3">
              <span className="shrink-0 sm:w-28">
                <VirtueBadge virtue={item.virtue} />
              </span>
              <span dangerouslySetInnerHTML={{ __html: item.html }} />
            </li>
          ))}
        </ul>
      );
    case "buttons":
      return (
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {block.buttons.map((button, i) => {
            const shown = member && button.member ? button.member : button;
            return (
              <ButtonLink key={i} to={shown.to} size="lg" variant={i === 0 ? undefined : "outline"}>
                {shown.label}
              </ButtonLink>
            );
          })}
        </div>
      );
    case "question":
      return <Question question={block.question} blocks={block.blocks} />;
  }
}

function Question({ question, blocks }: { question: string; blocks: HtmlBlock[] }) {
  return (
    <details className="group rounded-lg border border-line bg-white">
      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 px-5 py-4 font-semibold [&::-webkit-details-marker]:hidden">
        <span>{question}</span>
        <span aria-hidden="true" className="shrink-0 text-muted transition-transform group-open:rotate-45">
          +
        </span>
      </summary>
      <div className="space-y-3 border-t border-line px-5 py-4 leading-7 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">
        {blocks.map((block, i) => (
          <Html key={i} block={block} />
        ))}
      </div>
    </details>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
