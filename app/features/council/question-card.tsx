import { Eye } from "~/components/ui/icons/eye";
import { MessageSquare } from "~/components/ui/icons/message-square";
import { Byline, type Author } from "~/components/community/byline";
import { VirtueBadge } from "~/components/community/badges";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { plural } from "~/lib/utils";

export interface QuestionSummary {
  id: number;
  title: string;
  excerpt: string;
  virtues: string[];
  answers: number;
  views: number;
  author: Author;
  /** Answers since the member last read it (issue 28); null or absent when they never opened it. */
  newAnswers?: number | null;
}

export function QuestionCard({ question }: { question: QuestionSummary }) {
  return (
    // A column whose excerpt takes the spare height: in a row of cards the bylines and the
    // 'View Question' buttons line up at the bottom whatever the title's length.
    <Card className="flex flex-col p-6">
      <div className="flex flex-wrap gap-2">
        {question.virtues.map((v) => (
          <VirtueBadge key={v} virtue={v} />
        ))}
      </div>
      <h3 className="mt-3 text-lg font-semibold">{question.title}</h3>
      <p className="mt-2 flex-1 text-sm text-stone-700">{question.excerpt}</p>
      <div className="mt-3">
        <Byline author={question.author} />
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="flex gap-4 text-sm text-muted">
          <span className="inline-flex items-center gap-1">
            <MessageSquare aria-hidden="true" className="size-4" />
            {plural(question.answers, "answer")}
            {question.newAnswers ? <Badge tone="monk">{question.newAnswers} new</Badge> : null}
          </span>
          <span className="inline-flex items-center gap-1">
            <Eye aria-hidden="true" className="size-4" />
            {plural(question.views, "view")}
          </span>
        </p>
        <ButtonLink to={`/council/${question.id}`} variant="outline" size="sm" aria-label={`View Question: ${question.title}`}>
          View Question
        </ButtonLink>
      </div>
    </Card>
  );
}
