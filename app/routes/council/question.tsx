import { CheckCircle2 } from "~/components/ui/icons/check-circle-2";
import { pendingPostRedirect } from "~/.server/flash";
import { Eye } from "~/components/ui/icons/eye";
import { ShieldCheck } from "~/components/ui/icons/shield-check";
import { ThumbsUp } from "~/components/ui/icons/thumbs-up";
import { data, redirect } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/question";
import { VirtueBadge } from "~/components/community/badges";
import { Byline } from "~/components/community/byline";
import { SignInPrompt } from "~/components/community/sign-in-prompt";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-controls";
import { requestContext, servicesContext, viewerContext } from "~/.server/context";
import { questionWithAnswers, answerDraft } from "~/.server/domain/council/council-read-model";
import {
  acceptAnswer,
  answerQuestion,
  countQuestionView,
  deleteAnswer,
  deleteQuestion,
  editAnswer,
  editQuestion,
  HELPFUL_RANK,
  setHelpful,
  type Outcome,
} from "~/.server/domain/council/council-service";
import { progressOf } from "~/.server/domain/progression/progression-service";
import { setWatching, watchLevelFor } from "~/.server/domain/notifications/notification-service";
import { watchableQuestion } from "~/.server/domain/notifications/page-controls";
import { formKey, parseForm, readForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { BookmarkButton, DeleteControl, IntentButton } from "~/components/community/post-actions";
import { viewerBookmarks } from "~/.server/domain/bookmarks/bookmark-read-model";
import { reactionBars, threadReactionTargets } from "~/.server/domain/reactions/reaction-read-model";
import { blocksFor, collapsedPostHtml } from "~/.server/domain/blocks/block-service";
import { reactionBarHtml } from "~/components/community/reaction-bar.server";
import { previewUrlOf } from "~/.server/domain/discovery/previews";
import { relatedPosts } from "~/.server/domain/search/related-read-model";
import { relatedPostsHtml } from "~/components/community/related-posts.server";
import { formatDate } from "~/lib/dates";
import { EditedMark, HiddenBadge, PostMeta, ReviewNote, VeiledText } from "~/components/community/reply-card";
import { historyPath } from "~/lib/history";
import { draftPlace } from "~/lib/drafts";
import { parseId } from "~/lib/params";
import { isRankAtLeast, rankById } from "~/lib/ranks";
import { virtueById } from "~/lib/virtues";
import { cn, plural } from "~/lib/utils";
import { answerSchema, editAnswerSchema, editQuestionSchema } from "~/schemas/council";
import { watchSchema } from "~/schemas/notifications";
import { QUESTION_LISTS } from "~/schemas/fields";
import { MarkupFromServer, MemberProse } from "~/components/community/member-prose";
import { proseInMarkupOnly } from "~/.server/hydration-data";
import { hydrateLater } from "~/components/layout/hydrate-later";
import { PATH_NAME } from "~/lib/paths";
import { StructuredData } from "~/components/community/structured-data";
import { questionStructuredData } from "~/.server/domain/discovery/structured-data";

// A member's watching level: a form that posts without JavaScript, hydrated after the page (ADR 0031).
const WatchControl = hydrateLater(() => import("~/components/community/watch-control").then((m) => m.WatchControl));

// Only a signed-in member's page has these forms, and nothing else on it waits for them (ADR 0031).
const EditQuestionForm = hydrateLater(() => import("~/features/council/question-forms").then((m) => m.EditQuestionForm));
const AnswerTextForm = hydrateLater(() => import("~/features/council/question-forms").then((m) => m.AnswerTextForm));

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: `${loaderData.question.title} · The Council` },
        { name: "description", content: loaderData.question.excerpt },
        ...(loaderData.previewUrl ? [{ property: "og:image", content: loaderData.previewUrl }] : []),
      ]
    : [{ title: "Question not found" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.questionId);
  const services = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const shown = id ? await questionWithAnswers(services.db, id, viewer) : null;
  if (!shown || !id) throw data("Not found", { status: 404 });
  countQuestionView(services, id, viewer, context.get(requestContext).clientIp, context.get(requestContext).logger);
  const edit = new URL(request.url).searchParams.get("edit");
  const helpfulRank = rankById(HELPFUL_RANK);
  const here = `/council/${id}`;
  // The rest of the page's reads need only the question and its answers, not one another: sent at
  // once, so on PostgreSQL the page waits for the slowest of them rather than their sum.
  const [progress, blocks, bars, watch, draft, bookmarked, previewUrl, related] = await Promise.all([
    viewer ? progressOf(services.db, viewer.id) : null,
    // Posts of members the viewer blocked, or who blocked them, come collapsed (issue 31).
    blocksFor(services.db, viewer, [shown.question.authorId, ...shown.answers.map((a) => a.authorId)]),
    // Each post's reactions (issue 31), as markup made for this viewer; two queries for the page.
    reactionBars(
      services.db,
      viewer,
      threadReactionTargets(
        { kind: "question", id, mine: shown.question.mine, deleted: false, hidden: shown.question.hidden, back: here },
        "answer",
        shown.answers,
        (answerId) => `${here}#answer-${answerId}`,
      ),
    ),
    // The viewer's watching level (issue 28); null for a visitor, who has no control.
    watchLevelFor(services.db, viewer, `question:${id}`),
    // An answer's Quote link opens the answer form with it quoted (issue 32).
    answerDraft(services.db, viewer, id, new URL(request.url).searchParams),
    // Which of these posts the member keeps (issue 30): their Bookmark buttons.
    viewerBookmarks(services.db, viewer, [{ kind: "question", id }, ...shown.answers.map((a) => ({ kind: "answer" as const, id: a.id }))]),
    // The picture a shared link to it shows (issue 30); none while it is not public.
    previewUrlOf(services.db, services.env.BASE_URL, "question", id),
    relatedPosts(services.db, { kind: "question" }, id, shown.question.title),
  ]);
  const questionBlock = blocks.get(shown.question.authorId);
  const { authorId: _, ...question } = shown.question;
  return proseInMarkupOnly(context, {
    ...shown,
    question: { ...question, html: questionBlock && question.html !== null ? collapsedPostHtml(question.html, questionBlock) : question.html },
    reactionsHtml: questionBlock ? "" : reactionBarHtml(bars.get(`question:${id}`)),
    // Answers of members the viewer blocked, or who blocked them, come collapsed (issue 31).
    answers: shown.answers.map(({ authorId, ...a }) => {
      const block = blocks.get(authorId);
      return {
        ...a,
        html: block && a.html !== null ? collapsedPostHtml(a.html, block) : a.html,
        reactionsHtml: block ? "" : reactionBarHtml(bars.get(`answer:${a.id}`)),
      };
    }),
    canonical: `${services.env.BASE_URL}/council/${id}`,
    structuredData:
      shown.question.html === null ? null : questionStructuredData(services.env.BASE_URL, { ...shown.question, html: shown.question.html }, shown.answers),
    signedIn: viewer !== null,
    watch,
    canVote: progress ? isRankAtLeast(progress.rank.id, HELPFUL_RANK) : false,
    helpfulRank: { label: helpfulRank.label, minXp: helpfulRank.minXp },
    editing: edit === "question" || edit?.startsWith("answer-") ? edit : null,
    submissionKey: formKey(),
    draft,
    bookmarked,
    previewUrl,
    relatedHtml: relatedPostsHtml("Related Questions", related),
  });
}

type ActionResult = { errors: Record<string, string>; intent: string; target?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = parseId(params.questionId);
  if (!id) throw data("Not found", { status: 404 });
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const form = await readForm(request, { clone: true });
  const intent = String(form.get("intent") ?? "");
  const answerId = parseId(form.get("answerId"));
  const here = `/council/${id}`;
  const fail = (result: Extract<Outcome<unknown>, { ok: false }>, target?: string) => {
    if (result.status === 404) throw data("Not found", { status: 404 });
    return data<ActionResult>({ errors: result.errors, intent, target }, { status: result.status });
  };
  const needAnswer = () => {
    if (!answerId) throw data("Unknown answer", { status: 400 });
    return answerId;
  };

  switch (intent) {
    case "answer": {
      const parsed = await parseForm(request, answerSchema);
      if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, intent }, { status: 400 });
      const result = await answerQuestion(services, viewer, id, parsed.values);
      if (!result.ok) return fail(result);
      if (result.value.pending) return pendingPostRedirect(here, services.env.BASE_URL.startsWith("https://"));
      return redirect(`${here}#answer-${result.value.id}`);
    }
    case "accept":
    case "unaccept": {
      const result = await acceptAnswer(services, viewer, id, intent === "accept" ? needAnswer() : null);
      if (!result.ok) return fail(result);
      return redirect(here);
    }
    case "helpful":
    case "unhelpful": {
      const target = needAnswer();
      const result = await setHelpful(services, viewer, target, intent === "helpful");
      if (!result.ok) return fail(result, `answer-${target}`);
      return redirect(`${here}#answer-${target}`);
    }
    case "edit-question": {
      const parsed = await parseForm(request, editQuestionSchema, [], QUESTION_LISTS);
      if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, intent, target: "question" }, { status: 400 });
      const result = await editQuestion(services, viewer, id, parsed.values);
      if (!result.ok) return fail(result, "question");
      return redirect(here);
    }
    case "delete-question": {
      const result = await deleteQuestion(services, viewer, id);
      if (!result.ok) return fail(result);
      return redirect("/council");
    }
    case "edit-answer": {
      const target = needAnswer();
      const parsed = await parseForm(request, editAnswerSchema);
      if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, intent, target: `answer-${target}` }, { status: 400 });
      const result = await editAnswer(services, viewer, target, parsed.values);
      if (!result.ok) return fail(result, `answer-${target}`);
      return redirect(`${here}#answer-${target}`);
    }
    case "delete-answer": {
      const target = needAnswer();
      const result = await deleteAnswer(services, viewer, target);
      if (!result.ok) return fail(result);
      return redirect(`${here}#answer-${target}`);
    }
    case "watch": {
      const parsed = await parseForm(request, watchSchema);
      if (!parsed.ok) throw data(parsed.errors.level ?? "Unknown level", { status: 400 });
      if (!(await watchableQuestion(services.db, id))) throw data("Not found", { status: 404 });
      await setWatching(services, viewer, `question:${id}`, parsed.values.level);
      return redirect(`${here}#watch`);
    }
    default:
      throw data("Unknown action", { status: 400 });
  }
}

export default function Question({ loaderData, actionData }: Route.ComponentProps) {
  const { question, answers, signedIn, watch, canVote, helpfulRank, editing, submissionKey, structuredData, bookmarked, relatedHtml, reactionsHtml, draft } =
    loaderData;
  const here = `/council/${question.id}`;
  const errorsFor = (target: string) => (actionData?.target === target ? actionData.errors : undefined);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <StructuredData data={structuredData} />
      <p className="text-sm">
        <Link to="/council" className="font-semibold text-monk-strong underline">
          The Council
        </Link>
      </p>
      <h1 className="mt-4 font-serif text-3xl font-bold">{question.title}</h1>
      <div className="mt-3 flex flex-wrap gap-2">
        {question.virtues.map((v) => (
          <Link key={v} to={`/council?virtue=${v}#questions`} aria-label={`Questions on ${virtueById(v)?.label ?? v}`}>
            <VirtueBadge virtue={v} />
          </Link>
        ))}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Byline author={question.author}>
          <PostMeta post={question} label="asked" history={historyPath("question", question.id)} />
        </Byline>
        <span className="inline-flex items-center gap-1 text-sm text-muted">
          <Eye aria-hidden="true" className="size-4" /> {plural(question.views, "view")}
        </span>
      </div>
      <ReviewNote note={question.note} className="mt-4" />
      {editing === "question" && question.mine && question.body !== null ? (
        <EditQuestionForm title={question.title} body={question.body} virtues={question.virtues} errors={errorsFor("question")} cancel={here} />
      ) : question.html === null ? (
        <VeiledText className="mt-6" />
      ) : (
        <MemberProse className="mt-6" html={question.html} />
      )}
      <MarkupFromServer html={reactionsHtml} />
      {signedIn && editing !== "question" && !question.veiled ? (
        <div className="mt-4 flex flex-wrap items-center gap-1">
          {question.mine ? (
            <>
              <ButtonLink to={`${here}?edit=question`} variant="ghost" size="sm">
                Edit
              </ButtonLink>
              <DeleteControl intent="delete-question" fields={{}} prompt="Delete this question? It will no longer be listed." />
            </>
          ) : null}
          <BookmarkButton kind="question" id={question.id} bookmarked={bookmarked.includes(`question:${question.id}`)} back={here} />
        </div>
      ) : null}
      {actionData && !actionData.target && actionData.intent !== "answer" ? (
        <div className="mt-4">
          <FormAlert>{actionData.errors.form}</FormAlert>
        </div>
      ) : null}

      {watch ? <WatchControl what="question" level={watch} className="mt-6" /> : null}

      {/* A question the flags hid shows its readers none of its answers, nor a form for another. */}
      {question.veiled ? null : (
        <>
          {/* New answers are announced here while the page is open (issue 28, public/live.js). */}
          <section aria-labelledby="answers" className="mt-10" data-live={`question:${question.id}`}>
            <h2 id="answers" className="mb-4 text-2xl font-bold">
              {plural(question.answers, "Answer")}
            </h2>
            {answers.length === 0 ? (
              <p className="text-muted">No answers yet. Be the first to help.</p>
            ) : (
              <ol className="flex flex-col gap-4">
                {answers.map((a) => (
                  <li key={a.id} id={`answer-${a.id}`}>
                    <Card className={cn("p-5", a.accepted && "border-2 border-green-700")}>
                      {a.accepted ? (
                        <p className="mb-2 inline-flex items-center gap-1 text-sm font-semibold text-green-800">
                          <CheckCircle2 aria-hidden="true" className="size-4" /> Accepted answer
                        </p>
                      ) : null}
                      <Byline author={a.author}>
                        <span>
                          {formatDate(a.createdAt)}
                          <EditedMark edited={a.edited} history={historyPath("answer", a.id)} />
                          <HiddenBadge badge={a.badge} />
                        </span>
                      </Byline>
                      <ReviewNote note={a.note} className="mt-3" />
                      {a.advisor ? (
                        <p className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-stone-800">
                          <ShieldCheck aria-hidden="true" className={cn("size-4", a.advisor.path === "monk" ? "text-monk" : "text-warrior")} />
                          Verified advisor · {PATH_NAME[a.advisor.path]} · {a.advisor.specialty}
                        </p>
                      ) : null}
                      {editing === `answer-${a.id}` && a.mine && a.body !== null ? (
                        <div className="mt-3">
                          <AnswerTextForm
                            intent="edit-answer"
                            answerId={a.id}
                            body={a.body}
                            errors={errorsFor(`answer-${a.id}`)}
                            cancel={`${here}#answer-${a.id}`}
                          />
                        </div>
                      ) : a.veiled ? (
                        <VeiledText className="mt-3" />
                      ) : a.html !== null ? (
                        <MemberProse className="mt-3" html={a.html} />
                      ) : (
                        <p className="mt-3 text-muted">[deleted]</p>
                      )}
                      <MarkupFromServer html={a.reactionsHtml} />
                      <div className="mt-3 flex flex-wrap items-center gap-2">
                        <span className="inline-flex items-center gap-1 text-sm text-muted">
                          <ThumbsUp aria-hidden="true" className="size-4" /> {plural(a.helpful, "helpful vote")}
                        </span>
                        {!a.deleted && !a.hidden && signedIn && !a.mine && canVote ? (
                          <IntentButton
                            intent={a.voted ? "unhelpful" : "helpful"}
                            fields={{ answerId: a.id }}
                            label={a.voted ? "Undo helpful" : "Mark helpful"}
                            variant="outline"
                          />
                        ) : null}
                        {!a.deleted && !a.hidden && question.mine ? (
                          <IntentButton
                            intent={a.accepted ? "unaccept" : "accept"}
                            fields={{ answerId: a.id }}
                            label={a.accepted ? "Unaccept" : "Accept this answer"}
                            variant="outline"
                          />
                        ) : null}
                        {a.mine && !a.deleted && editing !== `answer-${a.id}` ? (
                          <>
                            <ButtonLink to={`${here}?edit=answer-${a.id}#answer-${a.id}`} variant="ghost" size="sm">
                              Edit
                            </ButtonLink>
                            <DeleteControl intent="delete-answer" fields={{ answerId: a.id }} prompt="Delete this answer? Its text will show as [deleted]." />
                          </>
                        ) : null}
                        {signedIn && !a.deleted && !a.hidden ? (
                          <ButtonLink
                            to={`${here}?quote=${a.id}#answer-body`}
                            variant="ghost"
                            size="sm"
                            preventScrollReset
                            data-quote={a.id}
                            data-quote-name={a.author.name}
                            data-quote-url={`${here}#answer-${a.id}`}
                          >
                            Quote
                          </ButtonLink>
                        ) : null}
                        {signedIn && !a.deleted && !a.veiled ? (
                          <BookmarkButton kind="answer" id={a.id} bookmarked={bookmarked.includes(`answer:${a.id}`)} back={`${here}#answer-${a.id}`} />
                        ) : null}
                      </div>
                      {errorsFor(`answer-${a.id}`)?.form ? (
                        <div className="mt-2">
                          <FormAlert>{errorsFor(`answer-${a.id}`)?.form}</FormAlert>
                        </div>
                      ) : null}
                    </Card>
                  </li>
                ))}
              </ol>
            )}
            {signedIn && !canVote ? (
              <p className="mt-4 text-sm text-muted">
                Marking answers helpful unlocks at the {helpfulRank.label} rank ({helpfulRank.minXp} XP).
              </p>
            ) : null}
          </section>

          <section aria-labelledby="answer-heading" className="mt-10">
            <h2 id="answer-heading" className="mb-4 text-xl font-bold">
              Your Answer
            </h2>
            {signedIn ? (
              <AnswerTextForm
                intent="answer"
                submissionKey={submissionKey}
                body={draft}
                keep={{ place: draftPlace("answer", question.id), label: `Answer to ${question.title}` }}
                errors={actionData?.intent === "answer" ? actionData.errors : undefined}
              />
            ) : (
              <SignInPrompt returnTo={here} action="answer" />
            )}
          </section>
        </>
      )}
      <MarkupFromServer html={relatedHtml} />
    </article>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
