import type { ReactNode } from "react";
import { ExternalLink } from "~/components/ui/icons/external-link";
import { pendingPostRedirect } from "~/.server/flash";
import { MessageCircle } from "~/components/ui/icons/message-circle";
import { data, redirect } from "react-router";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/creation";
import { Byline } from "~/components/community/byline";
import { BookmarkButton, DeleteControl, IntentButton } from "~/components/community/post-actions";
import { viewerBookmarks } from "~/.server/domain/bookmarks/bookmark-read-model";
import { reactionBars, threadReactionTargets } from "~/.server/domain/reactions/reaction-read-model";
import { blocksFor, collapsedPostHtml } from "~/.server/domain/blocks/block-service";
import { reactionBarHtml } from "~/components/community/reaction-bar.server";
import { previewUrlOf } from "~/.server/domain/discovery/previews";
import { relatedPosts } from "~/.server/domain/search/related-read-model";
import { relatedPostsHtml } from "~/components/community/related-posts.server";
import { SignInPrompt } from "~/components/community/sign-in-prompt";
import { Badge } from "~/components/ui/badge";
import { BLOCKED_LINE, SHOW_BLOCKED_POST } from "~/lib/blocks";
import { EditedMark, HiddenBadge, ReviewNote, VeiledText } from "~/components/community/reply-card";
import { historyPath } from "~/lib/history";
import { draftPlace } from "~/lib/drafts";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-controls";
import { servicesContext, viewerContext } from "~/.server/context";
import { isModerator } from "~/.server/domain/accounts/roles";
import { commentOnCreation, deleteComment, deleteCreation, editComment, moderateForge, setLiked } from "~/.server/domain/forge/forge-engagement";
import { creationWithComments } from "~/.server/domain/forge/forge-read-model";
import type { Outcome } from "~/.server/domain/outcome";
import { formKey, parseForm, readForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { CREATION_LABELS } from "~/features/forge/creation-types";
import { LikeButton } from "~/features/forge/like-button";
import { formatDate } from "~/lib/dates";
import { parseId } from "~/lib/params";
import { plural } from "~/lib/utils";
import { commentSchema, editCommentSchema } from "~/schemas/creation-comment";
import { MarkupFromServer, MemberProse } from "~/components/community/member-prose";
import { proseInMarkupOnly } from "~/.server/hydration-data";
import { StructuredData } from "~/components/community/structured-data";
import { postingStructuredData } from "~/.server/domain/discovery/structured-data";
import { hydrateLater } from "~/components/layout/hydrate-later";

// Only a signed-in member's page has these forms, and nothing else on it waits for them (ADR 0031).
const CommentForm = hydrateLater(() => import("~/features/forge/comment-form").then((m) => m.CommentForm));

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: `${loaderData.creation.title} · The Forge` },
        // Words are optional for a picture, a song or a project (ADR 0047): say what it is instead.
        { name: "description", content: loaderData.creation.description || `${loaderData.creation.title}, shared in the Forge.` },
        ...(loaderData.previewUrl ? [{ property: "og:image", content: loaderData.previewUrl }] : []),
      ]
    : [{ title: "Creation not found" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.creationId);
  const services = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const shown = id ? await creationWithComments(services.db, id, viewer) : null;
  if (!shown) throw data("Not found", { status: 404 });
  const edit = new URL(request.url).searchParams.get("edit");
  const { authorId: creationAuthorId, ...creation } = shown.creation;
  const here = `/forge/${shown.creation.id}`;
  // The rest of the page's reads need only the creation and its comments, not one another: sent at
  // once, so on PostgreSQL the page waits for the slowest of them rather than their sum.
  const [blocks, bars, bookmarked, previewUrl, related] = await Promise.all([
    // Posts of members the viewer blocked, or who blocked them, come collapsed (issue 31).
    blocksFor(services.db, viewer, [shown.creation.authorId, ...shown.comments.map((c) => c.authorId)]),
    // Each post's reactions (issue 31), as markup made for this viewer; two queries for the page.
    reactionBars(
      services.db,
      viewer,
      threadReactionTargets(
        { kind: "creation", id: shown.creation.id, mine: shown.creation.mine, deleted: false, hidden: shown.creation.hidden, back: here },
        "comment",
        shown.comments,
        (commentId) => `${here}#comment-${commentId}`,
      ),
    ),
    // Which of these posts the member keeps (issue 30): their Bookmark buttons.
    viewerBookmarks(services.db, viewer, [{ kind: "creation", id: shown.creation.id }, ...shown.comments.map((c) => ({ kind: "comment" as const, id: c.id }))]),
    // The picture a shared link to it shows (issue 30); none while it is not public.
    previewUrlOf(services.db, services.env.BASE_URL, "creation", shown.creation.id),
    relatedPosts(services.db, { kind: "creation" }, shown.creation.id, shown.creation.title),
  ]);
  const creationBlock = blocks.get(creationAuthorId) ?? null;
  return proseInMarkupOnly(context, {
    ...shown,
    creation,
    // The work itself comes collapsed behind the same line (its picture and sound too), worded here.
    // Where a half-written comment is kept (issue 32), named here so the page's script needs no rule for it.
    commentDraft: { place: draftPlace("comment", shown.creation.id), label: `Comment on ${shown.creation.title}` },
    blockedLine: creationBlock ? `${BLOCKED_LINE[creationBlock]} ${SHOW_BLOCKED_POST}` : null,
    reactionsHtml: creationBlock ? "" : reactionBarHtml(bars.get(`creation:${shown.creation.id}`)),
    // Comments of members the viewer blocked, or who blocked them, come collapsed (issue 31).
    comments: shown.comments.map(({ authorId, ...c }) => {
      const block = blocks.get(authorId);
      return {
        ...c,
        html: block && c.html !== null ? collapsedPostHtml(c.html, block) : c.html,
        reactionsHtml: block ? "" : reactionBarHtml(bars.get(`comment:${c.id}`)),
      };
    }),
    structuredData: shown.creation.veiled
      ? null
      : postingStructuredData(
          services.env.BASE_URL,
          {
            ...shown.creation,
            path: `/forge/${shown.creation.id}`,
            html: shown.creation.html ?? "",
            commentCount: shown.creation.comments,
            likeCount: shown.creation.likes,
          },
          shown.comments.map((c) => ({ ...c, id: `comment-${c.id}` })),
        ),
    signedIn: viewer !== null,
    moderator: isModerator(viewer),
    // From the first day (issue 31), never one's own.
    canLike: viewer !== null && !shown.creation.mine,
    editing: edit?.startsWith("comment-") ? edit : null,
    submissionKey: formKey(),
    bookmarked,
    previewUrl,
    relatedHtml: relatedPostsHtml("More from the Forge", related),
  });
}

type ActionResult = { errors: Record<string, string>; intent: string; target?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = parseId(params.creationId);
  if (!id) throw data("Not found", { status: 404 });
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const form = await readForm(request, { clone: true });
  const intent = String(form.get("intent") ?? "");
  const here = `/forge/${id}`;
  const commentId = parseId(form.get("commentId"));
  const fail = (result: Extract<Outcome<unknown>, { ok: false }>, target?: string) => {
    if (result.status === 404) throw data("Not found", { status: 404 });
    return data<ActionResult>({ errors: result.errors, intent, target }, { status: result.status });
  };
  const needComment = () => {
    if (!commentId) throw data("Unknown comment", { status: 400 });
    return commentId;
  };

  switch (intent) {
    case "like":
    case "unlike": {
      // No redirect: the fetcher wants the new state, and a plain form post renders the page with it.
      const result = await setLiked(services, viewer, id, intent === "like");
      if (!result.ok) return fail(result, "like");
      return data({ ...result.value, intent });
    }
    case "comment": {
      const parsed = await parseForm(request, commentSchema);
      if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, intent }, { status: 400 });
      const result = await commentOnCreation(services, viewer, id, parsed.values);
      if (!result.ok) return fail(result);
      if (result.value.pending) return pendingPostRedirect(here, services.env.BASE_URL.startsWith("https://"));
      return redirect(`${here}#comment-${result.value.id}`);
    }
    case "edit-comment": {
      const target = needComment();
      const parsed = await parseForm(request, editCommentSchema);
      if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, intent, target: `comment-${target}` }, { status: 400 });
      const result = await editComment(services, viewer, target, parsed.values);
      if (!result.ok) return fail(result, `comment-${target}`);
      return redirect(`/forge/${result.value.creationId}#comment-${target}`);
    }
    case "delete-comment": {
      const target = needComment();
      const result = await deleteComment(services, viewer, target);
      if (!result.ok) return fail(result, `comment-${target}`);
      return redirect(`/forge/${result.value.creationId}#comment-${target}`);
    }
    case "delete": {
      const result = await deleteCreation(services, viewer, id);
      if (!result.ok) return fail(result);
      return redirect("/forge");
    }
    case "moderate": {
      const act = String(form.get("action") ?? "");
      if (act !== "hide" && act !== "restore") throw data("Unknown action", { status: 400 });
      const kind = form.get("kind") === "comment" ? "comment" : "creation";
      const target = kind === "comment" ? needComment() : id;
      const result = await moderateForge(services, viewer, kind, target, act === "hide");
      if (!result.ok) return fail(result);
      return redirect(kind === "comment" ? `${here}#comment-${target}` : here);
    }
    default:
      throw data("Unknown action", { status: 400 });
  }
}

/** The work of a member the viewer blocked (or who blocked them): collapsed behind a line that opens it (issue 31). */
function BlockedWork({ line, children }: { line: string | null; children: ReactNode }) {
  if (!line) return <>{children}</>;
  return (
    <details className="blocked-post mt-6">
      <summary className="cursor-pointer text-sm text-muted">{line}</summary>
      {children}
    </details>
  );
}

export default function Creation({ loaderData, actionData }: Route.ComponentProps) {
  const {
    creation,
    blockedLine,
    commentDraft,
    comments,
    signedIn,
    moderator,
    canLike,
    editing,
    submissionKey,
    structuredData,
    bookmarked,
    relatedHtml,
    reactionsHtml,
  } = loaderData;
  const here = `/forge/${creation.id}`;
  const failed = actionData && "errors" in actionData ? actionData : null;
  const errorsFor = (target: string) => (failed?.target === target ? failed.errors : undefined);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <StructuredData data={structuredData} />
      <ParentLink to="/forge" accent>
        The Forge
      </ParentLink>
      <Badge className="mt-4">{CREATION_LABELS[creation.type]}</Badge>
      <HiddenBadge badge={creation.badge} />
      <h1 className="mt-3 font-serif text-4xl font-bold">{creation.title}</h1>
      {creation.description ? <p className="mt-3 text-lg text-stone-700">{creation.description}</p> : null}
      {/* The work in a card, as a discussion's opening post is: author, the piece, its reception. */}
      <Card className="mt-6 p-6 sm:p-8">
        <div>
          <Byline author={creation.author}>
            <span>
              {formatDate(creation.createdAt)}
              <EditedMark edited={creation.edited} history={historyPath("creation", creation.id)} />
            </span>
          </Byline>
        </div>
        <ReviewNote note={creation.note} className="mt-4" />
        {creation.veiled ? <VeiledText className="mt-6" /> : null}
        <BlockedWork line={blockedLine}>
          {creation.image ? (
            <figure className="mt-6">
              <a href={creation.image.full} aria-label={`Full size image: ${creation.title}`}>
                <img
                  src={creation.image.src}
                  width={creation.image.width ?? undefined}
                  height={creation.image.height ?? undefined}
                  alt={creation.description || creation.title}
                  className="h-auto max-w-full rounded-md"
                />
              </a>
              <figcaption className="mt-2 text-sm">
                <a href={creation.image.full} className="font-semibold text-monk-strong underline">
                  View full size
                </a>
              </figcaption>
            </figure>
          ) : null}
          {creation.audio ? (
            <audio controls preload="metadata" src={creation.audio} className="mt-6 w-full" aria-label={`Listen: ${creation.title}`}>
              <a href={creation.audio}>Download the audio</a>
            </audio>
          ) : null}
          {creation.html !== null ? <MemberProse className="mt-6" html={creation.html} /> : null}
          {creation.linkUrl ? (
            <p className="mt-6">
              <a
                href={creation.linkUrl}
                rel="nofollow ugc noopener noreferrer"
                className="inline-flex items-center gap-1 font-semibold text-monk-strong underline"
              >
                Visit the project <ExternalLink aria-hidden="true" className="size-4" />
              </a>
            </p>
          ) : null}
        </BlockedWork>
        {creation.veiled ? null : (
          <div className="mt-6 flex flex-wrap items-center gap-6 border-t border-line pt-4">
            <LikeButton liked={creation.liked} likes={creation.likes} canLike={canLike} error={errorsFor("like")?.form} />
            <span className="inline-flex items-center gap-1 text-sm text-muted">
              <MessageCircle aria-hidden="true" className="size-4" /> {plural(creation.comments, "comment")}
            </span>
          </div>
        )}
        <MarkupFromServer html={reactionsHtml} />
        {signedIn && !creation.veiled ? (
          <div className="mt-4 flex flex-wrap items-center gap-1">
            <BookmarkButton kind="creation" id={creation.id} bookmarked={bookmarked.includes(`creation:${creation.id}`)} back={here} />
            {creation.mine ? (
              <>
                <ButtonLink to={`${here}/edit`} variant="ghost" size="sm">
                  Edit
                </ButtonLink>
                <DeleteControl intent="delete" fields={{}} prompt="Delete this creation? It will no longer be shown, and its XP goes back." />
              </>
            ) : null}
            {moderator ? (
              <IntentButton
                intent="moderate"
                fields={{ kind: "creation", action: creation.hidden ? "restore" : "hide" }}
                label={creation.hidden ? "Restore" : "Hide"}
              />
            ) : null}
          </div>
        ) : null}
        {failed && !failed.target && failed.intent !== "comment" ? (
          <div className="mt-4">
            <FormAlert>{failed.errors.form}</FormAlert>
          </div>
        ) : null}
      </Card>
      {/* A creation the flags hid shows its readers none of its comments, nor a form for another. */}
      {creation.veiled ? null : (
        <>
          <section aria-labelledby="comments" className="mt-10">
            <h2 id="comments" className="mb-4 text-2xl font-bold">
              Comments
            </h2>
            {comments.length === 0 ? (
              <p className="text-muted">No comments yet.</p>
            ) : (
              <ul className="flex flex-col gap-4">
                {comments.map((c) => (
                  <li key={c.id} id={`comment-${c.id}`}>
                    <Card className="p-4">
                      <Byline author={c.author}>
                        <span>
                          {formatDate(c.createdAt)}
                          <EditedMark edited={c.edited} history={historyPath("comment", c.id)} />
                          <HiddenBadge badge={c.badge} />
                        </span>
                      </Byline>
                      <ReviewNote note={c.note} className="mt-2" />
                      {editing === `comment-${c.id}` && c.mine && c.body !== null ? (
                        <div className="mt-3">
                          <CommentForm
                            intent="edit-comment"
                            commentId={c.id}
                            body={c.body}
                            errors={errorsFor(`comment-${c.id}`)}
                            cancel={`${here}#comment-${c.id}`}
                          />
                        </div>
                      ) : c.veiled ? (
                        <VeiledText className="mt-2 text-sm" />
                      ) : c.html !== null ? (
                        <MemberProse className="mt-2 text-sm" html={c.html} />
                      ) : (
                        <p className="mt-2 text-sm text-muted">[deleted]</p>
                      )}
                      <MarkupFromServer html={c.reactionsHtml} />
                      {!c.deleted && !c.veiled && signedIn && editing !== `comment-${c.id}` ? (
                        <div className="mt-2 flex flex-wrap items-center gap-1">
                          <BookmarkButton kind="comment" id={c.id} bookmarked={bookmarked.includes(`comment:${c.id}`)} back={`${here}#comment-${c.id}`} />
                          {c.mine ? (
                            <>
                              <ButtonLink to={`${here}?edit=comment-${c.id}#comment-${c.id}`} variant="ghost" size="sm" preventScrollReset>
                                Edit
                              </ButtonLink>
                              <DeleteControl
                                intent="delete-comment"
                                fields={{ commentId: c.id }}
                                prompt="Delete this comment? Its text will show as [deleted]."
                              />
                            </>
                          ) : null}
                          {moderator ? (
                            <IntentButton
                              intent="moderate"
                              fields={{ kind: "comment", commentId: c.id, action: c.hidden ? "restore" : "hide" }}
                              label={c.hidden ? "Restore" : "Hide"}
                            />
                          ) : null}
                        </div>
                      ) : null}
                      {errorsFor(`comment-${c.id}`)?.form && editing !== `comment-${c.id}` ? (
                        <div className="mt-2">
                          <FormAlert>{errorsFor(`comment-${c.id}`)?.form}</FormAlert>
                        </div>
                      ) : null}
                    </Card>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="comment-heading" className="mt-10">
            <h2 id="comment-heading" className="mb-4 text-xl font-bold">
              Leave a Comment
            </h2>
            {signedIn ? (
              <CommentForm
                intent="comment"
                submissionKey={submissionKey}
                errors={failed?.intent === "comment" ? failed.errors : undefined}
                keep={commentDraft}
              />
            ) : (
              <SignInPrompt returnTo={here} action="comment" />
            )}
          </section>
        </>
      )}
      <MarkupFromServer html={relatedHtml} />
    </article>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
