import { Lock } from "~/components/ui/icons/lock";
import { pendingPostRedirect } from "~/.server/flash";
import { Pin } from "~/components/ui/icons/pin";
import { data, redirect } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/discussion";
import { Byline } from "~/components/community/byline";
import { SignInPrompt } from "~/components/community/sign-in-prompt";
import { Pager } from "~/components/community/pager";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { servicesContext, viewerContext } from "~/.server/context";
import { decodeIdCursor, pageRequest } from "~/.server/pagination";
import { discussionAddress, discussionWithAddress, discussionWithReplies, replyDraft } from "~/.server/domain/forum/forum-read-model";
import { replyPath } from "~/.server/domain/forum/section-read-model";
import { discussionReader } from "~/.server/domain/notifications/read-markers";
import { setWatching } from "~/.server/domain/notifications/notification-service";
import { deleteForumPost, editForumPost, moderate, postReply, type Outcome } from "~/.server/domain/forum/forum-service";
import { formKey, parseForm, readForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { BookmarkButton, DeleteControl, IntentButton } from "~/components/community/post-actions";
import { viewerBookmarks } from "~/.server/domain/bookmarks/bookmark-read-model";
import { reactionBars, threadReactionTargets } from "~/.server/domain/reactions/reaction-read-model";
import { blocksFor, collapsedPostHtml } from "~/.server/domain/blocks/block-service";
import { reactionBarHtml } from "~/components/community/reaction-bar.server";
import { previewUrlFor } from "~/.server/domain/discovery/previews";
import { relatedPosts } from "~/.server/domain/search/related-read-model";
import { relatedPostsHtml } from "~/components/community/related-posts.server";
import { SECTIONS, sectionOrNotFound } from "~/features/forum/sections";
import { parseId } from "~/lib/params";
import { historyPath } from "~/lib/history";
import { draftPlace } from "~/lib/drafts";
import { cn, plural } from "~/lib/utils";
import { editDiscussionSchema, editReplySchema, replySchema } from "~/schemas/forum";
import { watchSchema } from "~/schemas/notifications";
import { MarkupFromServer, MemberProse } from "~/components/community/member-prose";
import { PostMeta, ReviewNote, VeiledText } from "~/components/community/reply-card";
import { proseInMarkupOnly } from "~/.server/hydration-data";
import { replyCardHtml } from "~/features/forum/reply-cards.server";
import { hydrateLater } from "~/components/layout/hydrate-later";
import { StructuredData } from "~/components/community/structured-data";
import { postingStructuredData } from "~/.server/domain/discovery/structured-data";

// A member's watching level: a form that posts without JavaScript, hydrated after the page (ADR 0031).
const WatchControl = hydrateLater(() => import("~/components/community/watch-control").then((m) => m.WatchControl));

// Only a signed-in member's page has these forms, and nothing else on it waits for them (ADR 0031).
const EditForm = hydrateLater(() => import("~/features/forum/discussion-forms").then((m) => m.EditForm));
const ReplyForm = hydrateLater(() => import("~/features/forum/discussion-forms").then((m) => m.ReplyForm));

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [{ title: "Discussion not found" }];
  const { discussion, topic } = loaderData;
  return [
    { title: `${discussion.title} · ${topic.title}` },
    { name: "description", content: discussion.excerpt || discussion.title },
    ...(loaderData.previewUrl ? [{ property: "og:image", content: loaderData.previewUrl }] : []),
  ];
};

/** "123-some-slug" → 123; anything else is not a discussion. */
function discussionIdOf(ref: string) {
  const match = /^([0-9]+)(?:-[a-z0-9-]*)?$/.exec(ref);
  return match ? parseId(match[1]) : null;
}

/** A member's id stays on the server: the page needs only what the viewer may do. */
function withoutAuthorId<T extends { authorId: string }>({ authorId: _, ...rest }: T) {
  return rest;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const section = sectionOrNotFound(params.section);
  const id = discussionIdOf(params.discussionRef);
  if (!id) throw data("Not found", { status: 404 });
  const url = new URL(request.url);
  const services = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const pageAsked = pageRequest(url.searchParams, decodeIdCursor);
  if (!pageAsked.ok) throw data(pageAsked.errors.form, { status: pageAsked.status });
  // A returning member opens the discussion at the first reply they have not read (issue 28).
  const reader = await discussionReader(services.db, viewer, id);
  // Not when the member came to answer a reply (Quote, Reply): the form at the end is where they go.
  const answering = url.searchParams.has("quote") || url.searchParams.has("replyTo");
  if (reader?.resume && pageAsked.value.kind === "first" && !url.searchParams.has("edit") && !answering) {
    const address = await discussionAddress(services.db, id);
    if (address) throw redirect(`${address}?after=${reader.resume.after}#reply-${reader.resume.replyId}`);
  }
  const shown = await discussionWithReplies(services.db, viewer, id, pageAsked.value, reader?.marker);
  if (!shown) throw data("Not found", { status: 404 });
  // An old slug, or a discussion moved to another topic: one canonical address (301).
  if (shown.path !== `/${section}/${params.topicId}/${params.discussionRef}`) {
    throw redirect(shown.path + url.search, 301);
  }
  const edit = url.searchParams.get("edit");
  const editing = edit === "discussion" || edit?.startsWith("reply-") ? edit : null;
  // This page of replies, for a Bookmark button to come back to.
  const kept = new URLSearchParams(url.search);
  kept.delete("edit");
  kept.delete("quote");
  kept.delete("replyTo");
  const pageHere = `${shown.path}${kept.size > 0 ? `?${kept}` : ""}`;
  // The rest of the page's reads need only the discussion and its replies, not one another: they are
  // sent at once, so on PostgreSQL the page waits for the slowest of them rather than their sum.
  const [bookmarked, related, blocks, bars, draft] = await Promise.all([
    // Which of these posts the member keeps (issue 30): their Bookmark buttons.
    viewerBookmarks(services.db, viewer, [{ kind: "discussion", id }, ...shown.replies.map((r) => ({ kind: "reply" as const, id: r.id }))]),
    relatedPosts(services.db, { kind: "discussion", section: shown.topic.section }, id, shown.discussion.title),
    // Posts of members the viewer blocked, or who blocked them, come collapsed (issue 31).
    blocksFor(services.db, viewer, [shown.discussion.authorId, ...shown.replies.map((r) => r.authorId)]),
    // Each post's reactions (issue 31), as markup made for this viewer; two queries for the page.
    reactionBars(
      services.db,
      viewer,
      threadReactionTargets(
        { kind: "discussion", id, mine: shown.discussion.mine, deleted: shown.discussion.deleted, hidden: shown.discussion.hidden, back: `${shown.path}#post` },
        "reply",
        shown.replies,
        (replyId) => `${pageHere}#reply-${replyId}`,
      ),
    ),
    // A reply's Quote and Reply links open the reply form answering it (issue 32).
    replyDraft(services.db, viewer, id, shown.path, url.searchParams),
  ]);
  const openingBlock = blocks.get(shown.discussion.authorId);
  const { preview, ...page } = shown;
  return proseInMarkupOnly(context, {
    // The picture a shared link to it shows (issue 30); none while it is not public.
    previewUrl: previewUrlFor(services.env.BASE_URL, "discussion", id, preview),
    relatedHtml: relatedPostsHtml("Related Discussions", related),
    bookmarked,
    pageHere,
    ...page,
    discussion: withoutAuthorId({
      ...shown.discussion,
      html: openingBlock && shown.discussion.html !== null ? collapsedPostHtml(shown.discussion.html, openingBlock) : shown.discussion.html,
    }),
    reactionsHtml: openingBlock ? "" : reactionBarHtml(bars.get(`discussion:${id}`)),
    // What every viewer sees of a reply comes as markup rendered once per version of the reply
    // (ADR 0032); only what the viewer may do with it stays data for React.
    replies: shown.replies.map((r) => ({
      id: r.id,
      cardHtml: blocks.has(r.authorId) ? collapsedPostHtml(replyCardHtml(r, true), blocks.get(r.authorId)!) : replyCardHtml(r, !editsReply(editing, r)),
      reactionsHtml: blocks.has(r.authorId) ? "" : reactionBarHtml(bars.get(`reply:${r.id}`)),
      body: r.body,
      mine: r.mine,
      deleted: r.deleted,
      hidden: r.hidden,
      review: r.review,
      veiled: r.veiled,
      note: r.note,
      // Who a quote of it names, and where it links back to.
      quoted: { name: r.author.name, url: replyPath(shown.path, r.id) },
    })),
    draft,
    canonical: services.env.BASE_URL + shown.path,
    structuredData:
      shown.discussion.html === null
        ? null
        : postingStructuredData(
            services.env.BASE_URL,
            { ...shown.discussion, path: shown.path, html: shown.discussion.html, commentCount: shown.discussion.replies },
            shown.replies.filter((r) => !r.hidden).map((r) => ({ ...r, id: `reply-${r.id}` })),
          ),
    signedIn: viewer !== null,
    // The viewer's watching level (issue 28); null for a visitor, who has no control.
    watch: reader?.watch ?? null,
    editing,
    submissionKey: formKey(),
  });
}

/** Whether the page shows the edit form of this reply (its author's, with ?edit=reply-<id>). */
function editsReply(editing: string | null, reply: { id: number; mine: boolean; body: string | null }) {
  return editing === `reply-${reply.id}` && reply.mine && reply.body !== null;
}

type ActionResult = { errors: Record<string, string>; intent: string; target?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  sectionOrNotFound(params.section);
  const id = discussionIdOf(params.discussionRef);
  if (!id) throw data("Not found", { status: 404 });
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const form = await readForm(request, { clone: true });
  const intent = String(form.get("intent") ?? "");
  // Back to the discussion's own address: the one posted to may be an old slug or made up (and a
  // made-up topic segment is no header value), and a reply must still land after a move or a rename.
  const found = await discussionWithAddress(services.db, id);
  if (!found) throw data("Not found", { status: 404 });
  const here = found.path;
  const kind = form.get("kind") === "reply" ? "reply" : "discussion";
  const targetId = kind === "reply" ? parseId(form.get("id")) : id;
  if (!targetId) throw data("Unknown post", { status: 400 });

  const fail = (result: Extract<Outcome<unknown>, { ok: false }>, target?: string) => {
    if (result.status === 404) throw data("Not found", { status: 404 });
    return data<ActionResult>({ errors: result.errors, intent, target }, { status: result.status });
  };

  switch (intent) {
    case "reply": {
      const parsed = await parseForm(request, replySchema);
      if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, intent }, { status: 400 });
      // The reply it answers, if the form names one (issue 32): an id, or nothing.
      const named = form.get("replyTo");
      const replyTo = named === null || named === "" ? null : parseId(named);
      if (named !== null && named !== "" && !replyTo) throw data("Unknown reply", { status: 400 });
      // The row just read serves the reply's own checks (one round trip fewer on PostgreSQL).
      const result = await postReply(services, viewer, id, { ...parsed.values, replyTo }, new Date(), found.row);
      if (!result.ok) return fail(result);
      if (result.value.pending) return pendingPostRedirect(here, services.env.BASE_URL.startsWith("https://"));
      return redirect(`${here}?page=last#reply-${result.value.id}`);
    }
    case "edit": {
      const target = kind === "reply" ? `reply-${targetId}` : "discussion";
      const parsed = await parseForm(request, kind === "reply" ? editReplySchema : editDiscussionSchema);
      if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, intent, target }, { status: 400 });
      const result = await editForumPost(services, viewer, kind, targetId, parsed.values as { title?: string; body: string });
      if (!result.ok) return fail(result, target);
      // An edited title is a new slug: the address is read again.
      const edited = (await discussionAddress(services.db, id)) ?? here;
      return redirect(`${edited}${kind === "reply" ? `#reply-${targetId}` : ""}`);
    }
    case "delete": {
      const result = await deleteForumPost(services, viewer, kind, targetId);
      if (!result.ok) return fail(result);
      return redirect(`${here}${kind === "reply" ? `#reply-${targetId}` : ""}`);
    }
    case "moderate": {
      const act = String(form.get("action") ?? "");
      if (!["hide", "restore", "lock", "unlock", "feature", "unfeature"].includes(act)) throw data("Unknown action", { status: 400 });
      const result = await moderate(services, viewer, act as "hide", kind, targetId);
      if (!result.ok) return fail(result);
      return redirect(`${here}${kind === "reply" ? `#reply-${targetId}` : ""}`);
    }
    case "watch": {
      const parsed = await parseForm(request, watchSchema);
      if (!parsed.ok) throw data(parsed.errors.level ?? "Unknown level", { status: 400 });
      await setWatching(services, viewer, `discussion:${id}`, parsed.values.level);
      return redirect(`${here}#watch`);
    }
    default:
      throw data("Unknown action", { status: 400 });
  }
}

type Page = Route.ComponentProps["loaderData"];

function ModeratorControls({
  kind,
  id,
  hidden,
  locked,
  featured,
}: {
  kind: "discussion" | "reply";
  id: number;
  hidden: boolean;
  locked?: boolean;
  featured?: boolean;
}) {
  const fields = (action: string) => ({ kind, id, action });
  return (
    <div className="flex flex-wrap gap-1" role="group" aria-label="Moderation">
      <IntentButton intent="moderate" fields={fields(hidden ? "restore" : "hide")} label={hidden ? "Restore" : "Hide"} />
      {kind === "discussion" ? (
        <>
          <IntentButton intent="moderate" fields={fields(locked ? "unlock" : "lock")} label={locked ? "Unlock" : "Lock"} />
          <IntentButton intent="moderate" fields={fields(featured ? "unfeature" : "feature")} label={featured ? "Unfeature" : "Feature"} />
        </>
      ) : null}
    </div>
  );
}

export default function Discussion({ loaderData, actionData }: Route.ComponentProps) {
  const {
    topic,
    discussion,
    replies,
    pages,
    path,
    signedIn,
    watch,
    editing,
    submissionKey,
    moderator,
    structuredData,
    bookmarked,
    pageHere,
    relatedHtml,
    reactionsHtml,
    draft,
  } = loaderData as Page;
  // Quote and Reply open this page's reply form answering a reply, the page's own query kept.
  const answerLink = (param: "quote" | "replyTo", replyId: number) => {
    const query = new URLSearchParams(pageHere.includes("?") ? pageHere.slice(pageHere.indexOf("?")) : "");
    query.set(param, String(replyId));
    return `${path}?${query}#reply-body`;
  };
  // The count is of live replies; deleted ones keep their place as "[deleted]", so the heading
  // names them too and never reads "0 Replies" above a card.
  const deletedHere = replies.filter((r) => r.deleted).length;
  const info = SECTIONS[topic.section];
  const errorsFor = (target: string) => (actionData?.intent === "edit" && actionData.target === target ? actionData.errors : undefined);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <StructuredData data={structuredData} />
      <p className="text-sm">
        <Link to={`/${topic.section}`} className="font-semibold underline">
          {info.title}
        </Link>{" "}
        ›{" "}
        <Link to={`/${topic.section}/${topic.id}`} className="font-semibold underline">
          {topic.title}
        </Link>
      </p>
      <h1 className="mt-3 flex flex-wrap items-center gap-3 font-serif text-3xl font-bold">
        {discussion.title}
        {discussion.featured ? (
          <Badge tone="monk">
            <Pin aria-hidden="true" className="size-3" /> Featured
          </Badge>
        ) : null}
        {discussion.locked ? (
          <Badge>
            <Lock aria-hidden="true" className="size-3" /> Locked
          </Badge>
        ) : null}
      </h1>

      <Card className={cn("mt-6 p-6", discussion.hidden && "border-warrior")} id="post">
        <Byline author={discussion.author}>
          <PostMeta post={discussion} label="started" history={historyPath("discussion", discussion.id)} />
        </Byline>
        <ReviewNote note={discussion.note} className="mt-4" />
        {editing === "discussion" && discussion.mine && discussion.body !== null ? (
          <EditForm kind="discussion" id={discussion.id} title={discussion.title} body={discussion.body} cancel={path} errors={errorsFor("discussion")} />
        ) : discussion.veiled ? (
          <VeiledText className="mt-4" />
        ) : discussion.html !== null ? (
          <MemberProse className="mt-4" html={discussion.html} />
        ) : (
          <p className="mt-4 text-muted">[deleted]</p>
        )}
        <MarkupFromServer html={reactionsHtml} />
        <div className="mt-4 flex flex-wrap items-center gap-1">
          {discussion.mine && !discussion.deleted && editing !== "discussion" ? (
            <>
              <ButtonLink to={`${path}?edit=discussion#post`} variant="ghost" size="sm" preventScrollReset>
                Edit
              </ButtonLink>
              <DeleteControl
                intent="delete"
                fields={{ kind: "discussion", id: discussion.id }}
                prompt="Delete this discussion's opening post? Its text will show as [deleted]."
              />
            </>
          ) : null}
          {signedIn && !discussion.deleted && !discussion.veiled ? (
            <BookmarkButton kind="discussion" id={discussion.id} bookmarked={bookmarked.includes(`discussion:${discussion.id}`)} back={`${path}#post`} />
          ) : null}
          {moderator ? (
            <ModeratorControls kind="discussion" id={discussion.id} hidden={discussion.hidden} locked={discussion.locked} featured={discussion.featured} />
          ) : null}
        </div>
      </Card>
      {watch ? <WatchControl what="discussion" level={watch} className="mt-4" /> : null}

      {discussion.veiled ? null : (
        <>
          {/* New replies are announced here while the page is open (issue 28, public/live.js). */}
          <section aria-labelledby="replies" className="mt-10" data-live={`discussion:${discussion.id}`}>
            <h2 id="replies" className="mb-4 text-2xl font-bold">
              {plural(discussion.replies, "Reply", "Replies")}
              {deletedHere > 0 ? <span className="text-base font-normal text-muted"> · {deletedHere} deleted</span> : null}
            </h2>
            <Pager
              label="Reply pages (top)"
              links={{ first: pages.first, previous: pages.earlier, next: pages.later, last: pages.last }}
              names={["First", "Earlier", "Later", "Latest"]}
            />
            {replies.length === 0 && discussion.replies === 0 ? (
              // A fresh discussion invites its first reply rather than showing a bare "0 Replies".
              <p className="text-stone-700">
                No replies yet.{" "}
                {discussion.locked ? null : signedIn ? (
                  <a href="#reply-body" className="font-semibold text-monk-strong underline">
                    Be the first to reply.
                  </a>
                ) : (
                  <Link to={`/signin?redirectTo=${encodeURIComponent(path)}`} className="font-semibold text-monk-strong underline">
                    Sign in to be the first to reply.
                  </Link>
                )}
              </p>
            ) : null}
            {/* The cards' profile links are plain <a>: one handler here navigates client-side. */}
            <ol className="mt-4 flex flex-col gap-4">
              {replies.map((r) => (
                <li key={r.id} id={`reply-${r.id}`}>
                  <Card className={cn("p-5", r.hidden && "border-warrior")}>
                    <MarkupFromServer html={r.cardHtml} />
                    <ReviewNote note={r.note} className="mt-3" />
                    <MarkupFromServer html={r.reactionsHtml} />
                    {editsReply(editing, r) ? (
                      <EditForm kind="reply" id={r.id} body={r.body!} cancel={`${path}#reply-${r.id}`} errors={errorsFor(`reply-${r.id}`)} />
                    ) : null}
                    {(signedIn && !r.deleted && !r.veiled) || moderator ? (
                      <div className="mt-3 flex flex-wrap items-center gap-1">
                        {r.mine && !r.deleted && editing !== `reply-${r.id}` ? (
                          <>
                            <ButtonLink to={`${path}?edit=reply-${r.id}#reply-${r.id}`} variant="ghost" size="sm" preventScrollReset>
                              Edit
                            </ButtonLink>
                            <DeleteControl intent="delete" fields={{ kind: "reply", id: r.id }} prompt="Delete this reply? Its text will show as [deleted]." />
                          </>
                        ) : null}
                        {signedIn && !r.deleted && !r.hidden && !discussion.locked ? (
                          <>
                            <ButtonLink to={answerLink("replyTo", r.id)} variant="ghost" size="sm" preventScrollReset>
                              Reply
                            </ButtonLink>
                            <ButtonLink
                              to={answerLink("quote", r.id)}
                              variant="ghost"
                              size="sm"
                              preventScrollReset
                              data-quote={r.id}
                              data-quote-name={r.quoted.name}
                              data-quote-url={r.quoted.url}
                            >
                              Quote
                            </ButtonLink>
                          </>
                        ) : null}
                        {signedIn && !r.deleted ? (
                          <BookmarkButton kind="reply" id={r.id} bookmarked={bookmarked.includes(`reply:${r.id}`)} back={`${pageHere}#reply-${r.id}`} />
                        ) : null}
                        {moderator ? <ModeratorControls kind="reply" id={r.id} hidden={r.hidden} /> : null}
                      </div>
                    ) : null}
                  </Card>
                </li>
              ))}
            </ol>
            <Pager
              label="Reply pages"
              links={{ first: pages.first, previous: pages.earlier, next: pages.later, last: pages.last }}
              names={["First", "Earlier", "Later", "Latest"]}
            />
          </section>

          <section aria-labelledby="reply-heading" className="mt-10">
            <h2 id="reply-heading" className="mb-4 text-xl font-bold">
              Reply
            </h2>
            {discussion.locked ? (
              <p className="rounded-md bg-stone-100 p-4 text-stone-700">This discussion is locked. No new replies can be posted.</p>
            ) : signedIn ? (
              <ReplyForm
                submissionKey={submissionKey}
                errors={actionData?.intent === "reply" ? actionData.errors : undefined}
                draft={draft}
                cancel={`${path}#reply-body`}
                keep={{ place: draftPlace("reply", discussion.id), label: `Reply in ${discussion.title}` }}
              />
            ) : (
              <SignInPrompt returnTo={path} action="reply" />
            )}
          </section>
        </>
      )}
      <MarkupFromServer html={relatedHtml} />
    </article>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
