import { data, Form, redirect } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/profile";
import { Avatar } from "~/components/community/avatar";
import { Pager } from "~/components/community/pager";
import { RankBadge, VirtueBadge } from "~/components/community/badges";
import { NextRankNeeds } from "~/components/community/next-rank-needs";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FieldError, FormAlert, Input, Label, Textarea } from "~/components/ui/form-controls";
import { servicesContext, viewerContext } from "~/.server/context";
import { memberProfile, type ContributionItem } from "~/.server/domain/accounts/profile-read-model";
import { profileStructuredData } from "~/.server/domain/discovery/structured-data";
import { StructuredData } from "~/components/community/structured-data";
import { decodeActivityCursor, INVALID_PAGE_LINK } from "~/.server/pagination";
import { setMemberMuted, viewerMutes } from "~/.server/domain/notifications/notification-service";
import { memberIdByHandle } from "~/.server/domain/notifications/page-controls";
import { readForm } from "~/.server/forms";
import { isModerator } from "~/.server/domain/accounts/roles";
import { liftSilence, silenceMember, silenceOf } from "~/.server/domain/accounts/silence";
import { removeMemberPicture } from "~/.server/domain/accounts/avatar-service";
import { setBlocked, viewerBlocks } from "~/.server/domain/blocks/block-service";
import { proseInMarkupOnly } from "~/.server/hydration-data";
import { requireViewer } from "~/.server/session";
import { formatDate } from "~/lib/dates";
import { CONTRIBUTION_TABS, isContributionTab, type ContributionTab } from "~/lib/contributions";
import { isProfileHandle } from "~/lib/members";
import { rankById } from "~/lib/ranks";
import { formatCount } from "~/lib/utils";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        {
          title: loaderData.profile.tab
            ? `${loaderData.profile.name}'s ${tabOf(loaderData.profile.tab).label.toLowerCase()} · Inner Peace. Outer Strength.`
            : `${loaderData.profile.name} · Inner Peace. Outer Strength.`,
        },
        { name: "description", content: `${loaderData.profile.name}'s path: rank, virtues and contributions.` },
      ]
    : [{ title: "Page not found · Inner Peace. Outer Strength." }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Odd characters or a deleted account's handle are simply no profile: a 404, never a 500.
  const handle = params.handle ?? "";
  if (!isProfileHandle(handle)) throw data("Not found", { status: 404 });
  const search = new URL(request.url).searchParams;
  const tab = search.get("tab");
  // A tab that is not one is no page of this profile.
  if (tab !== null && !isContributionTab(tab)) throw data("Not found", { status: 404 });
  const rawBefore = search.get("before");
  const before = rawBefore === null ? null : decodeActivityCursor(rawBefore);
  if (rawBefore !== null && !before) throw data(INVALID_PAGE_LINK, { status: 400 });
  const { db } = context.get(servicesContext);
  const profile = await memberProfile(db, handle, tab === null ? { tab: null } : { tab, before });
  if (!profile) throw data("Not found", { status: 404 });
  const viewer = context.get(viewerContext);
  // The mute button (issue 28): for a signed-in member on someone else's profile; null otherwise.
  const muted = viewer && viewer.id !== profile.id ? await viewerMutes(db, viewer, profile.id) : null;
  // The block button (issue 31), beside it.
  const blocked = viewer && viewer.id !== profile.id ? await viewerBlocks(db, viewer, profile.id) : null;
  const posts = Object.values(profile.counts).reduce((sum, n) => sum + n, 0);
  const structuredData = profileStructuredData(context.get(servicesContext).env.BASE_URL, { ...profile, rankLabel: rankById(profile.rank).label, posts });
  // A moderator's silence control (issue 31): until when and why, or the form.
  const silence = isModerator(viewer) && viewer?.id !== profile.id ? { current: await silenceOf(db, profile.id) } : null;
  return proseInMarkupOnly(context, { profile, muted, blocked, paged: before !== null, structuredData, silence });
}

/** Mute or unmute this member: nothing they do notifies the viewer while muted (issue 28). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const handle = params.handle ?? "";
  if (!isProfileHandle(handle)) throw data("Not found", { status: 404 });
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (!["mute", "unmute", "silence", "unsilence", "block", "unblock", "remove-picture"].includes(String(intent))) throw data("Unknown action", { status: 400 });
  const memberId = await memberIdByHandle(services.db, handle);
  if (!memberId) throw data("Not found", { status: 404 });
  if (intent === "silence" || intent === "unsilence") {
    // A moderator makes the member read-only for a while, with a reason they see (issue 31).
    const days = Number(form.get("days"));
    const done =
      intent === "silence"
        ? await silenceMember(services, viewer, memberId, { days, reason: String(form.get("reason") ?? "") })
        : await liftSilence(services, viewer, memberId);
    if (!done.ok) return data({ errors: done.errors, intent }, { status: done.status });
    return redirect(`/members/${handle}#silence`);
  }
  if (intent === "remove-picture") {
    // A moderator takes down a picture that breaks the code of conduct (issue 32).
    const done = await removeMemberPicture(services, viewer, memberId);
    if (!done.ok) return data({ errors: done.errors, intent }, { status: done.status });
    return redirect(`/members/${handle}#silence`);
  }
  if (intent === "block" || intent === "unblock") {
    const done = await setBlocked(services, viewer, memberId, intent === "block");
    if (!done.ok) return data({ errors: done.errors, intent }, { status: done.status });
    return redirect(`/members/${handle}#block`);
  }
  const result = await setMemberMuted(services, viewer, memberId, intent === "mute");
  if (!result.ok) return data({ errors: result.errors, intent }, { status: result.status });
  return redirect(`/members/${handle}#mute`);
}

/** A moderator's control over a member's silence: until when and why, with the way to lift it, or the form. */
function SilenceControl({ current, errors }: { current: { until: string; reason: string } | null; errors?: Record<string, string> }) {
  return (
    <Form method="post" preventScrollReset id="silence" className="mt-4 flex flex-col gap-2 rounded-md border border-line p-3">
      <FormAlert>{errors?.form}</FormAlert>
      {current ? (
        <>
          <input type="hidden" name="intent" value="unsilence" />
          <p className="text-sm">
            Silenced until {formatDate(current.until)}: {current.reason}
          </p>
          <div>
            <Button type="submit" variant="outline" size="sm">
              Lift Silence
            </Button>
          </div>
        </>
      ) : (
        <>
          <input type="hidden" name="intent" value="silence" />
          <Label htmlFor="silence-days">Silence for (days)</Label>
          <Input id="silence-days" name="days" type="number" min={1} max={365} defaultValue={7} required className="w-28" />
          <FieldError id="silence-days-error">{errors?.days}</FieldError>
          <Label htmlFor="silence-reason">Reason the member will read</Label>
          <Textarea id="silence-reason" name="reason" maxLength={500} required className="min-h-16" />
          <FieldError id="silence-reason-error">{errors?.reason}</FieldError>
          <div>
            <Button type="submit" variant="warrior" size="sm">
              Silence Member
            </Button>
          </div>
        </>
      )}
    </Form>
  );
}

/**
 * One of the viewer's own switches about this member, and what it does: mute (issue 28) or block
 * (issue 31). `on` says which way it stands; the form posts the other way.
 */
function MemberSwitch({
  id,
  on,
  intents,
  labels,
  says,
  error,
}: {
  id: string;
  on: boolean;
  intents: [off: string, on: string];
  labels: [turnOn: string, turnOff: string];
  says: [whenOff: string, whenOn: string];
  error?: string;
}) {
  return (
    <Form method="post" preventScrollReset id={id} className="mt-3 flex flex-col gap-1">
      <input type="hidden" name="intent" value={on ? intents[0] : intents[1]} />
      <FormAlert>{error}</FormAlert>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="outline" size="sm">
          {on ? labels[1] : labels[0]}
        </Button>
        <span className="text-sm text-stone-700">{on ? says[1] : says[0]}</span>
      </div>
    </Form>
  );
}

const tabOf = (id: ContributionTab) => CONTRIBUTION_TABS.find((t) => t.id === id)!;

function ContributionList({ items, labelledBy }: { items: ContributionItem[]; labelledBy: string }) {
  return (
    <ul aria-labelledby={labelledBy} className="flex flex-col gap-2">
      {items.map((item) => (
        <li key={item.id} className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
          <Link to={item.href} className="font-medium text-monk-strong underline-offset-2 hover:underline">
            {item.title}
          </Link>
          <time dateTime={item.at} className="text-xs text-muted">
            {formatDate(item.at)}
          </time>
        </li>
      ))}
    </ul>
  );
}

/** The latest of one kind, and the way to all of them on its tab. */
function Contributions({ handle, tab, items, total }: { handle: string; tab: ContributionTab; items: ContributionItem[]; total: number }) {
  const { label, empty } = tabOf(tab);
  const id = `contributions-${tab}`;
  return (
    <Card>
      <CardHeader>
        <CardTitle id={id} className="text-lg">
          {label} <span className="text-sm font-normal text-muted">({formatCount(total)})</span>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? <p className="text-sm text-muted">{empty}</p> : <ContributionList items={items} labelledBy={id} />}
        {total > items.length ? (
          <Link to={`/members/${handle}?tab=${tab}#contributions`} className="mt-3 inline-block text-sm font-semibold text-monk-strong hover:underline">
            All {formatCount(total)} {label.toLowerCase()}
          </Link>
        ) : null}
      </CardContent>
    </Card>
  );
}

const tabClass = (current: boolean) =>
  `rounded-full border px-3 py-1 text-sm font-medium ${current ? "border-ink bg-ink text-white" : "border-stone-300 bg-white hover:bg-stone-100"}`;

/** Overview and one tab per kind, each with its count. */
function ContributionTabs({ handle, current, counts }: { handle: string; current: ContributionTab | null; counts: Record<ContributionTab, number> }) {
  return (
    <nav aria-label="Contributions by kind" className="mb-6">
      <ul className="flex flex-wrap gap-2">
        <li>
          <Link to={`/members/${handle}#contributions`} aria-current={current === null ? "page" : undefined} className={tabClass(current === null)}>
            Overview
          </Link>
        </li>
        {CONTRIBUTION_TABS.map((t) => (
          <li key={t.id}>
            <Link
              to={`/members/${handle}?tab=${t.id}#contributions`}
              aria-current={current === t.id ? "page" : undefined}
              className={tabClass(current === t.id)}
            >
              {t.label} ({formatCount(counts[t.id])})
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const p = loaderData.profile;
  const rank = rankById(p.rank);
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <StructuredData data={loaderData.structuredData} />
      <section aria-labelledby="profile-name" className="flex flex-col gap-6 sm:flex-row sm:items-center">
        <Avatar member={p} size="lg" />
        <div className="min-w-0">
          <h1 id="profile-name" className="font-serif text-4xl font-bold">
            {p.name}
          </h1>
          {/* Separate items spaced apart, no "·" between them: a wrapped line never starts or ends
              with a dangling separator (issue 26 item 12). */}
          <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-stone-700">
            <RankBadge rank={p.rank} className="px-3 py-1 text-sm" />
            <span>{rank.description}</span>
            <span data-testid="profile-xp">{formatCount(p.xp)} XP</span>
            <span>
              Joined <time dateTime={p.joinedAt}>{formatDate(p.joinedAt)}</time>
            </span>
          </div>
          {p.next ? (
            <div className="mt-2 flex flex-col gap-1" data-testid="profile-next-rank">
              <p className="text-sm text-stone-700">Next rank: {p.next.label}</p>
              <NextRankNeeds nextLabel={p.next.label} xp={p.next.xp} virtues={p.next.virtues} />
            </div>
          ) : (
            <p className="mt-2 text-sm text-stone-700">The highest rank: both paths in balance.</p>
          )}
          {loaderData.muted === null ? null : (
            <MemberSwitch
              id="mute"
              on={loaderData.muted}
              intents={["unmute", "mute"]}
              labels={[`Mute ${p.name}`, `Unmute ${p.name}`]}
              says={["You will not be notified of anything they do.", "You are not notified of anything they do."]}
              error={actionData?.intent === "mute" || actionData?.intent === "unmute" ? actionData.errors.form : undefined}
            />
          )}
          {loaderData.blocked === null ? null : (
            <MemberSwitch
              id="block"
              on={loaderData.blocked}
              intents={["unblock", "block"]}
              labels={[`Block ${p.name}`, `Unblock ${p.name}`]}
              says={["Neither of you will see the other's posts or reply to them.", "Neither of you sees the other's posts or replies to them."]}
              error={actionData?.intent === "block" || actionData?.intent === "unblock" ? actionData.errors.form : undefined}
            />
          )}
          {loaderData.silence && p.avatar ? (
            <Form method="post" preventScrollReset className="mt-4">
              <FormAlert>{actionData?.intent === "remove-picture" ? actionData.errors.form : undefined}</FormAlert>
              <input type="hidden" name="intent" value="remove-picture" />
              <Button type="submit" variant="outline" size="sm">
                Remove Picture
              </Button>
            </Form>
          ) : null}
          {loaderData.silence ? (
            <SilenceControl
              current={loaderData.silence.current}
              errors={actionData?.intent === "silence" || actionData?.intent === "unsilence" ? actionData.errors : undefined}
            />
          ) : null}
        </div>
      </section>

      <div className="mt-8 grid gap-6 md:grid-cols-3">
        <Card className="md:col-span-2">
          <CardHeader>
            <CardTitle className="text-lg">About</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {p.bio ? (
              <p className="whitespace-pre-line text-stone-800" data-testid="profile-bio">
                {p.bio}
              </p>
            ) : (
              <p className="text-sm text-muted">No bio yet.</p>
            )}
            <div>
              <h2 className="mb-2 text-sm font-semibold">Interests</h2>
              {p.interests.length > 0 ? (
                <ul className="flex flex-wrap gap-2" data-testid="profile-interests">
                  {p.interests.map((label) => (
                    <li key={label} className="rounded-full border border-line bg-stone-50 px-3 py-1 text-xs font-medium">
                      {label}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-muted">No interests chosen yet.</p>
              )}
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Virtues</CardTitle>
          </CardHeader>
          <CardContent>
            {p.virtues.length > 0 ? (
              <ul className="flex flex-wrap gap-2" data-testid="profile-virtues">
                {p.virtues.map((v) => (
                  <li key={v.virtue}>
                    <VirtueBadge virtue={v.virtue} level={v.level} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted">No virtues trained yet. Virtues grow with completed challenges.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="contributions" className="mt-10">
        <h2 id="contributions" className="mb-4 font-serif text-2xl font-bold">
          Contributions
        </h2>
        <ContributionTabs handle={p.handle} current={p.tab} counts={p.counts} />
        {p.tab === null ? (
          <div className="grid gap-6 md:grid-cols-2">
            {CONTRIBUTION_TABS.map((t) => (
              <Contributions key={t.id} handle={p.handle} tab={t.id} items={p.lists[t.id]} total={p.counts[t.id]} />
            ))}
          </div>
        ) : (
          <Card>
            <CardHeader>
              <CardTitle id="contributions-page" className="text-lg">
                {tabOf(p.tab).label}
              </CardTitle>
            </CardHeader>
            <CardContent>
              {p.items.length === 0 ? (
                <p className="text-sm text-muted">{tabOf(p.tab).empty}</p>
              ) : (
                <ContributionList items={p.items} labelledBy="contributions-page" />
              )}
              <Pager
                label={`Pages of ${tabOf(p.tab).label.toLowerCase()}`}
                links={{
                  first: loaderData.paged ? `/members/${p.handle}?tab=${p.tab}#contributions` : null,
                  previous: null,
                  next: p.older ? `/members/${p.handle}?tab=${p.tab}&before=${p.older}#contributions` : null,
                  last: null,
                }}
                names={["Newest", "", "Older", ""]}
              />
            </CardContent>
          </Card>
        )}
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
