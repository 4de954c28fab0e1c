import type { ReactNode } from "react";
import { CheckCircle2 } from "~/components/ui/icons/check-circle-2";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";

/** The mark on a list item of the dashboard: what the member is already part of. */
export function YoursMark({ label }: { label: "You're on this" | "You're going" }) {
  return (
    <Badge tone="neutral" data-testid="yours-mark">
      <CheckCircle2 aria-hidden="true" className="size-3.5" />
      {label}
    </Badge>
  );
}

/** A dashboard list: its heading, then the items, or a line saying there are none with a link to act. */
function DashboardSection({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  empty: { text: string; link: string; to: string } | null;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-4 font-serif text-2xl font-bold">
        {title}
      </h2>
      {empty ? (
        <p className="text-stone-700">
          {empty.text}{" "}
          <Link to={empty.to} className="font-semibold text-monk-strong underline">
            {empty.link}
          </Link>
        </p>
      ) : (
        children
      )}
    </section>
  );
}

export interface WatchedDiscussionItem {
  id: number;
  title: string;
  href: string;
  newReplies: number;
}

/** A dashboard list of cards, one an item, or the line saying there are none. */
function CardList<T extends { id: number }>({
  id,
  title,
  empty,
  items,
  className,
  children,
}: {
  id: string;
  title: string;
  empty: { text: string; link: string; to: string };
  items: T[];
  className: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <DashboardSection id={id} title={title} empty={items.length === 0 ? empty : null}>
      <ul className="flex flex-col gap-3" data-testid={id}>
        {items.map((item) => (
          <li key={item.id}>
            <Card className={className}>{children(item)}</Card>
          </li>
        ))}
      </ul>
    </DashboardSection>
  );
}

/** Discussions the member watches with replies they have not read, each linked at the first of them (issue 28). */
export function WatchedDiscussions({ discussions }: { discussions: WatchedDiscussionItem[] }) {
  return (
    <CardList
      id="watched-discussions"
      title="New in discussions you watch"
      empty={{ text: "Nothing new in the discussions you watch.", link: "Browse the Monastery", to: "/monastery" }}
      items={discussions}
      className="flex flex-wrap items-center justify-between gap-2 p-4"
    >
      {(d) => (
        <>
          <Link to={d.href} className="font-semibold underline-offset-4 hover:underline">
            {d.title}
          </Link>
          <Badge tone="monk">{d.newReplies === 1 ? "1 new reply" : `${d.newReplies} new replies`}</Badge>
        </>
      )}
    </CardList>
  );
}

export interface UpcomingEventItem {
  id: number;
  title: string;
  path: "monk" | "warrior";
  startsAt: string;
  start: string;
}

/** Events the member said they are going to, soonest first, each marked so. */
export function UpcomingEvents({ events }: { events: UpcomingEventItem[] }) {
  return (
    <CardList
      id="upcoming-events"
      title="Your upcoming events"
      empty={{ text: "No upcoming events yet.", link: "Browse events", to: "/events" }}
      items={events}
      className="flex flex-col gap-2 p-4"
    >
      {(e) => (
        <>
          <h3 className="font-semibold">
            <Link to={`/events/${e.id}`} className="underline-offset-4 hover:underline">
              {e.title}
            </Link>
          </h3>
          <p className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
            <time dateTime={e.startsAt}>{e.start}</time>
            <YoursMark label="You're going" />
          </p>
        </>
      )}
    </CardList>
  );
}

export interface RecentPostItem {
  key: string;
  kind: "discussion" | "reply" | "question" | "answer" | "creation";
  title: string;
  href: string;
  at: string;
  date: string;
}

/** What each kind of post reads as before its title. */
const KIND: Record<RecentPostItem["kind"], string> = {
  discussion: "Discussion",
  reply: "Reply in",
  question: "Question",
  answer: "Answer to",
  creation: "Creation",
};

/** The member's latest posts of every kind, newest first, each a link to where it is. */
export function RecentPosts({ posts }: { posts: RecentPostItem[] }) {
  return (
    <DashboardSection
      id="recent-posts"
      title="Your recent posts"
      empty={posts.length === 0 ? { text: "No posts yet.", link: "Start a discussion in the Monastery", to: "/monastery" } : null}
    >
      <ul className="flex flex-col gap-2 text-sm" data-testid="recent-posts">
        {posts.map((p) => (
          <li key={p.key} className="flex flex-wrap justify-between gap-x-3">
            <span className="min-w-0 break-words">
              {KIND[p.kind]}{" "}
              <Link to={p.href} className="font-semibold text-monk-strong underline">
                {p.title}
              </Link>
            </span>
            <time dateTime={p.at} className="whitespace-nowrap text-muted">
              {p.date}
            </time>
          </li>
        ))}
      </ul>
    </DashboardSection>
  );
}
