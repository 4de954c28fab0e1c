import type { Route } from "./+types/ranks";
import { RankBadge, VirtueBadge } from "~/components/community/badges";
import { ProsePage, ProseSection, TextLink } from "~/components/layout/prose-page";
import { useViewer } from "~/components/layout/use-viewer";
import { ButtonLink } from "~/components/ui/button";
import {
  CHALLENGE_RANK,
  HELPFUL_RANK,
  INITIATE_DAILY_POSTS,
  INITIATE_DAILY_REACTIONS,
  NEW_MEMBER_IMAGES,
  NEW_MEMBER_LIMITS_RANK,
  NEW_MEMBER_LINKS,
  TOPIC_RANK,
  UNLIMITED_POSTS_RANK,
  UNLIMITED_REACTIONS_RANK,
} from "~/lib/privileges";
import { REACTION_NAMES, REACTIONS } from "~/lib/reactions";
import { MASTER_VIRTUE_LEVEL, RANKS, rankById, type RankId } from "~/lib/ranks";
import { cn, formatCount } from "~/lib/utils";
import { challengesForLevel, MAX_VIRTUE_LEVEL, VIRTUES } from "~/lib/virtues";
import { CAPPED_KINDS, DAILY_VOTE_XP_CAP, XP, XP_WAY, type XpKind } from "~/lib/xp";
import { PATH_LABEL } from "~/lib/paths";

// Every number on this page comes from the rules in app/lib (xp.ts, ranks.ts, privileges.ts,
// virtues.ts); the page only words them.

/** Small counts as words ("seven ranks"), the way the page has always said them. */
const COUNT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const countWord = (n: number) => COUNT_WORDS[n] ?? formatCount(n);

export const meta: Route.MetaFunction = () => [
  { title: "Rank System · Inner Peace. Outer Strength." },
  {
    name: "description",
    content: `How members earn XP and climb ${countWord(RANKS.length)} ranks from ${RANKS[0].label} to ${RANKS[RANKS.length - 1].label}, how the ${countWord(VIRTUES.length)} virtues level up through challenges, and what each rank unlocks.`,
  },
];

/** XP per event, in the rules' order; `fromOthers` marks the kinds under the daily cap. */
const XP_TABLE = (Object.keys(XP) as XpKind[]).map((kind) => ({
  event: XP_WAY[kind],
  xp: XP[kind],
  fromOthers: CAPPED_KINDS.includes(kind),
}));

/** What each privilege is, at the rank the rules unlock it. */
const UNLOCKS: { rank: RankId; text: string }[] = [
  {
    rank: RANKS[0].id,
    text: "Reply in discussions, ask and answer questions in the Council, and share creations in the Forge.",
  },
  {
    rank: RANKS[0].id,
    text: `Start discussions, questions or creations: at most ${INITIATE_DAILY_POSTS} new ones a day, in total.`,
  },
  { rank: RANKS[0].id, text: "Join challenges and check in once a day." },
  {
    rank: RANKS[0].id,
    text: `React to any post (${REACTION_NAMES.map((r) => REACTIONS[r].label).join(", ")}) and like creations: at most ${INITIATE_DAILY_REACTIONS} a day, in total. An initiate's likes give no XP.`,
  },
  { rank: RANKS[0].id, text: "Flag posts that break the code of conduct, for the moderators to review." },
  {
    rank: RANKS[0].id,
    text: `Put at most ${NEW_MEMBER_LINKS} links and ${NEW_MEMBER_IMAGES} image in a post.`,
  },
  { rank: HELPFUL_RANK, text: "Mark answers helpful." },
  { rank: NEW_MEMBER_LIMITS_RANK, text: "Put any number of links and images in a post." },
  {
    rank: UNLIMITED_POSTS_RANK,
    text: `The daily limit of ${INITIATE_DAILY_POSTS} new discussions, questions or creations lifts.`,
  },
  {
    rank: UNLIMITED_REACTIONS_RANK,
    text: `The daily limit of ${INITIATE_DAILY_REACTIONS} reactions and likes lifts, and your likes give their creators XP.`,
  },
  { rank: TOPIC_RANK, text: "Create new topics in the Monastery and the Battlefield." },
  { rank: CHALLENGE_RANK, text: "Propose challenges for advisors to review and publish." },
];

/**
 * What each rank adds to the ones below it, in ladder order; the ranks above the last privilege
 * share one row.
 */
const PRIVILEGES: { ranks: RankId[]; unlocks: string[] }[] = (() => {
  const rows = RANKS.map((rank) => ({
    ranks: [rank.id] as RankId[],
    unlocks: UNLOCKS.filter((u) => u.rank === rank.id).map((u) => u.text),
  }));
  const last = rows.findLastIndex((row) => row.unlocks.length > 0);
  const top = rows.slice(last + 1);
  const held = rankById(rows[last].ranks[0]).label.toLowerCase();
  return [
    ...rows.slice(0, last + 1).filter((row) => row.unlocks.length > 0),
    ...(top.length > 0
      ? [
          {
            ranks: top.flatMap((row) => row.ranks),
            unlocks: [
              `Everything a ${held} may do. These ranks add no new permissions: they mark a long, steady record of practice and contribution that the community can see on your profile and next to everything you post.`,
            ],
          },
        ]
      : []),
  ];
})();

/** The fewest completed challenges that reach each virtue level. */
const VIRTUE_LEVEL_STEPS = Array.from({ length: MAX_VIRTUE_LEVEL }, (_, i) => ({
  level: i + 1,
  challenges: challengesForLevel(i + 1),
}));

/** Completed challenges per virtue that the master rank asks for. */
const masterChallenges = challengesForLevel(MASTER_VIRTUE_LEVEL);

export default function RanksPage() {
  const member = useViewer() !== null;
  return (
    <ProsePage
      wide
      title="Rank System"
      lead={
        <p>
          Everything you contribute earns experience points (XP). XP carries you up {countWord(RANKS.length)} ranks, and the challenges you complete train{" "}
          {countWord(VIRTUES.length)} virtues. The higher ranks unlock more of the community's tools.
        </p>
      }
    >
      <ProseSection id="ranks" title={`The ${countWord(RANKS.length)} ranks`} plain>
        <p className="max-w-prose leading-7">
          Your rank follows your total XP. The ladder starts at {RANKS[0].label} and ends at {RANKS[RANKS.length - 1].label}, the only rank that asks for more
          than XP.
        </p>
        <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {RANKS.map((rank, index) => (
            <li key={rank.id} className="flex flex-col gap-3 rounded-xl border border-line bg-white p-5 shadow-sm">
              <div className="flex items-center justify-between gap-3">
                <span className="text-sm font-semibold text-muted">Rank {index + 1}</span>
                <span aria-hidden="true">
                  <RankBadge rank={rank.id} />
                </span>
              </div>
              <div>
                <h3 className="font-serif text-xl font-bold">{rank.label}</h3>
                <p className="text-muted">{rank.description}</p>
              </div>
              <p className="mt-auto text-sm">
                {rank.minXp === 0 ? (
                  <>
                    <strong className="font-semibold">{rank.minXp} XP:</strong> every new member starts here.
                  </>
                ) : (
                  <>
                    <strong className="font-semibold">{formatCount(rank.minXp)} XP</strong> or more
                  </>
                )}
                {rank.id === "master" ? (
                  <>
                    , and every one of the {countWord(VIRTUES.length)} virtues at level {MASTER_VIRTUE_LEVEL} or higher. Until then a member past{" "}
                    {formatCount(rank.minXp)} XP stays {RANKS[index - 1].label}.
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ol>
      </ProseSection>

      <ProseSection id="virtues" title={`The ${countWord(VIRTUES.length)} virtues`} plain>
        <p className="max-w-prose leading-7">
          Virtues are trained by <TextLink to="/challenges">challenges</TextLink>. Each challenge trains one or two virtues, and finishing it counts toward each
          of them. Wisdom, discipline and compassion belong to the monk's path; courage, honor and resilience to the warrior's. A virtue you have not trained
          yet does not appear on your profile.
        </p>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {VIRTUES.map((v) => (
            <li key={v.id} className="flex flex-col gap-2 rounded-xl border border-line bg-white p-5 shadow-sm">
              <div>
                <VirtueBadge virtue={v.id} />
              </div>
              <p>{v.description}</p>
              <p className={cn("text-sm font-semibold", v.path === "monk" ? "text-monk-strong" : "text-warrior-strong")}>{PATH_LABEL[v.path]}</p>
            </li>
          ))}
        </ul>

        <h3 className="mt-10 text-lg font-semibold">How a virtue levels up</h3>
        <p className="mt-2 max-w-prose leading-7">
          A virtue's level counts the challenges you have completed that train it. An attempt that runs past the challenge's length unfinished does not count,
          but you can restart the challenge and try again.
        </p>
        <ol className="mt-4 grid gap-3 sm:grid-cols-3">
          {VIRTUE_LEVEL_STEPS.map((step) => (
            <li key={step.level} className="rounded-lg border border-line bg-white p-4">
              <p className="font-semibold">Level {step.level}</p>
              <p className="text-sm text-muted">
                after {step.challenges} completed {step.challenges === 1 ? "challenge" : "challenges"} that {step.challenges === 1 ? "trains" : "train"} the
                virtue
              </p>
            </li>
          ))}
        </ol>
        <p className="mt-4 max-w-prose text-sm leading-6 text-muted">
          Example: a challenge that trains <VirtueBadge virtue="discipline" className="align-middle" /> and{" "}
          <VirtueBadge virtue="resilience" className="align-middle" /> moves both virtues one step closer to their next level when you complete it.{" "}
          {RANKS[RANKS.length - 1].label} asks for all {countWord(VIRTUES.length)} virtues at level {MASTER_VIRTUE_LEVEL}: at least {masterChallenges} completed
          challenges training each one.
        </p>
      </ProseSection>

      <ProseSection id="xp" title="Earning XP" plain>
        <p className="max-w-prose leading-7">
          XP is awarded once for each event below. When the content behind it is removed, by you or by a moderator, the XP it earned is taken back.
        </p>
        <div className="mt-6 max-w-2xl overflow-x-auto rounded-xl border border-line bg-white">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="px-4 pt-4 pb-2 text-left font-semibold text-ink">XP awarded per event</caption>
            <thead>
              <tr className="border-b border-line">
                <th scope="col" className="px-4 py-2 font-semibold">
                  Event
                </th>
                <th scope="col" className="px-4 py-2 text-right font-semibold">
                  XP
                </th>
              </tr>
            </thead>
            <tbody>
              {XP_TABLE.map((row) => (
                <tr key={row.event} className="border-b border-line last:border-b-0">
                  <th scope="row" className="px-4 py-2 font-normal">
                    {row.event}
                    {row.fromOthers ? <span className="block text-xs text-muted">Counts toward the daily cap</span> : null}
                  </th>
                  <td className="px-4 py-2 text-right font-semibold tabular-nums">+{row.xp}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t border-line bg-paper">
                <td colSpan={2} className="px-4 py-3 text-muted">
                  Daily cap: XP from others' votes and likes (helpful marks on your answers, likes on your creations) counts at most {DAILY_VOTE_XP_CAP} XP a
                  day.
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      </ProseSection>

      <ProseSection id="privileges" title="Privileges by rank" plain>
        <p className="max-w-prose leading-7">Each rank keeps everything the ranks below it allow and adds the following.</p>
        <dl className="mt-6 max-w-3xl divide-y divide-line rounded-xl border border-line bg-white">
          {PRIVILEGES.map((p) => (
            <div key={p.ranks.join("-")} className="flex flex-col gap-2 p-5 sm:flex-row sm:gap-6">
              {/* self-start and content-start: the row is as tall as its list of unlocks, and a
                  stretched dt would stretch its badges into tall pills. */}
              <dt className="flex shrink-0 flex-wrap content-start items-start gap-2 self-start sm:w-56">
                {p.ranks.map((id) => (
                  <RankBadge key={id} rank={id} />
                ))}
              </dt>
              <dd>
                <ul className="list-disc space-y-1 pl-5 leading-7">
                  {p.unlocks.map((text) => (
                    <li key={text}>{text}</li>
                  ))}
                </ul>
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-6 max-w-prose leading-7">
          Advisor, moderator and admin are roles, not ranks. An admin grants them: advisors are community leaders on the monk's or the warrior's path whose
          answers in the Council carry a "Verified advisor" mark, and who create challenges and events; moderators look after the discussions.
        </p>
      </ProseSection>

      <ProseSection id="start" title="Start climbing" plain>
        <p className="max-w-prose leading-7">
          Every member begins as an {RANKS[0].label} with {RANKS[0].minXp} XP. Your first reply, question or completed challenge is the first step.
        </p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {member ? (
            <ButtonLink to="/dashboard" size="lg">
              Go to Dashboard
            </ButtonLink>
          ) : (
            <ButtonLink to="/join" size="lg">
              Join the Path
            </ButtonLink>
          )}
          <ButtonLink to="/challenges" size="lg" variant="outline">
            Browse challenges
          </ButtonLink>
        </div>
      </ProseSection>
    </ProsePage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
