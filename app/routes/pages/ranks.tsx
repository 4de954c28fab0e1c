import type { Route } from "./+types/ranks";
import { RankBadge, VirtueBadge } from "~/components/community/badges";
import { ProsePage, ProseSection, TextLink } from "~/components/layout/prose-page";
import { useViewer } from "~/components/layout/use-viewer";
import { ButtonLink } from "~/components/ui/button";
import { INITIATE_DAILY_POSTS } from "~/lib/privileges";
import { MASTER_VIRTUE_LEVEL, RANKS, type RankId } from "~/lib/ranks";
import { cn, formatCount } from "~/lib/utils";
import { VIRTUES, virtueLevel } from "~/lib/virtues";

export const meta: Route.MetaFunction = () => [
  { title: "Rank System · Inner Peace. Outer Strength." },
  {
    name: "description",
    content:
      "How members earn XP and climb seven ranks from Initiate to Master, how the six virtues level up through challenges, and what each rank unlocks.",
  },
];

/** XP per event (PRODUCT.md §3). `fromOthers` marks XP that comes from other members' votes and likes. */
const XP_TABLE = [
  { event: "Start a discussion", xp: 5, fromOthers: false },
  { event: "Reply in a discussion", xp: 2, fromOthers: false },
  { event: "Ask a question", xp: 2, fromOthers: false },
  { event: "Answer a question", xp: 5, fromOthers: false },
  { event: "Your answer is accepted", xp: 15, fromOthers: false },
  { event: "Your answer is marked helpful", xp: 2, fromOthers: true },
  { event: "Share a creation", xp: 10, fromOthers: false },
  { event: "Your creation is liked", xp: 1, fromOthers: true },
  { event: "Challenge check-in (once a day)", xp: 1, fromOthers: false },
  { event: "Complete a challenge", xp: 25, fromOthers: false },
] as const;

/** XP from others' votes and likes counts at most this much a day for a member (PRODUCT.md §3). */
const DAILY_XP_CAP_FROM_OTHERS = 50;

/** What each rank adds to the ones below it (PRODUCT.md §3). */
const PRIVILEGES: { ranks: RankId[]; unlocks: string[] }[] = [
  {
    ranks: ["initiate"],
    unlocks: [
      "Reply in discussions, ask and answer questions in the Council, and share creations in the Forge.",
      `Start discussions, questions or creations: at most ${INITIATE_DAILY_POSTS} new ones a day, in total.`,
      "Join challenges and check in once a day.",
    ],
  },
  {
    ranks: ["acolyte"],
    unlocks: [
      "Mark answers helpful and like creations.",
      `The daily limit of ${INITIATE_DAILY_POSTS} new discussions, questions or creations lifts.`,
    ],
  },
  {
    ranks: ["disciple"],
    unlocks: ["Create new topics in the Monastery and the Battlefield."],
  },
  {
    ranks: ["sage"],
    unlocks: ["Propose challenges for advisors to review and publish."],
  },
  {
    ranks: ["samurai", "warlord", "master"],
    unlocks: [
      "Everything a sage may do. These ranks add no new permissions: they mark a long, steady record of practice and contribution that the community can see on your profile and next to everything you post.",
    ],
  },
];

/** The fewest completed challenges that reach each virtue level, read from `virtueLevel` itself. */
const VIRTUE_LEVEL_STEPS = [1, 2, 3].map((level) => {
  let challenges = 0;
  while (virtueLevel(challenges) < level) challenges++;
  return { level, challenges };
});

/** Completed challenges per virtue that the master rank asks for. */
const masterChallenges = VIRTUE_LEVEL_STEPS.find((s) => s.level === MASTER_VIRTUE_LEVEL)?.challenges ?? 0;

const PATH_LABEL = { monk: "Monk's path", warrior: "Warrior's path" } as const;

function rankLabel(id: RankId) {
  return RANKS.find((r) => r.id === id)?.label ?? id;
}

export default function RanksPage() {
  const member = useViewer() !== null;
  return (
    <ProsePage
      wide
      title="Rank System"
      lead={
        <p>
          Everything you contribute earns experience points (XP). XP carries you up seven ranks, and the challenges
          you complete train six virtues. The higher ranks unlock more of the community's tools.
        </p>
      }
    >
      <ProseSection id="ranks" title="The seven ranks" plain>
        <p className="max-w-prose leading-7">
          Your rank follows your total XP. The ladder starts at Initiate and ends at Master, the only rank that asks
          for more than XP.
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
                    <strong className="font-semibold">0 XP:</strong> every new member starts here.
                  </>
                ) : (
                  <>
                    <strong className="font-semibold">{formatCount(rank.minXp)} XP</strong> or more
                  </>
                )}
                {rank.id === "master" ? (
                  <>
                    , and every one of the six virtues at level {MASTER_VIRTUE_LEVEL} or higher. Until then a member
                    past {formatCount(rank.minXp)} XP stays {rankLabel("warlord")}.
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ol>
      </ProseSection>

      <ProseSection id="virtues" title="The six virtues" plain>
        <p className="max-w-prose leading-7">
          Virtues are trained by <TextLink to="/challenges">challenges</TextLink>. Each challenge trains one or two
          virtues, and finishing it counts toward each of them. Wisdom, discipline and compassion belong to the
          monk's path; courage, honor and resilience to the warrior's. A virtue you have not trained yet does not
          appear on your profile.
        </p>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {VIRTUES.map((v) => (
            <li key={v.id} className="flex flex-col gap-2 rounded-xl border border-line bg-white p-5 shadow-sm">
              <div>
                <VirtueBadge virtue={v.id} />
              </div>
              <p>{v.description}</p>
              <p className={cn("text-sm font-semibold", v.path === "monk" ? "text-monk-strong" : "text-warrior-strong")}>
                {PATH_LABEL[v.path]}
              </p>
            </li>
          ))}
        </ul>

        <h3 className="mt-10 text-lg font-semibold">How a virtue levels up</h3>
        <p className="mt-2 max-w-prose leading-7">
          A virtue's level counts the challenges you have completed that train it. An attempt that runs past the
          challenge's length unfinished does not count, but you can restart the challenge and try again.
        </p>
        <ol className="mt-4 grid gap-3 sm:grid-cols-3">
          {VIRTUE_LEVEL_STEPS.map((step) => (
            <li key={step.level} className="rounded-lg border border-line bg-white p-4">
              <p className="font-semibold">Level {step.level}</p>
              <p className="text-sm text-muted">
                after {step.challenges} completed {step.challenges === 1 ? "challenge" : "challenges"} that{" "}
                {step.challenges === 1 ? "trains" : "train"} the virtue
              </p>
            </li>
          ))}
        </ol>
        <p className="mt-4 max-w-prose text-sm leading-6 text-muted">
          Example: a challenge that trains{" "}
          <VirtueBadge virtue="discipline" className="align-middle" /> and{" "}
          <VirtueBadge virtue="resilience" className="align-middle" /> moves both virtues one step closer to
          their next level when you complete it. Master asks for all six virtues at level {MASTER_VIRTUE_LEVEL}: at
          least {masterChallenges} completed challenges training each one.
        </p>
      </ProseSection>

      <ProseSection id="xp" title="Earning XP" plain>
        <p className="max-w-prose leading-7">
          XP is awarded once for each event below. When the content behind it is removed, by you or by a moderator,
          the XP it earned is taken back.
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
                    {row.fromOthers ? (
                      <span className="block text-xs text-muted">Counts toward the daily cap</span>
                    ) : null}
                  </th>
                  <td className="px-4 py-2 text-right font-semibold tabular-nums">+{row.xp}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t border-line bg-paper">
                <td colSpan={2} className="px-4 py-3 text-muted">
                  Daily cap: XP from others' votes and likes (helpful marks on your answers, likes on your creations)
                  counts at most {DAILY_XP_CAP_FROM_OTHERS} XP a day.
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      </ProseSection>

      <ProseSection id="privileges" title="Privileges by rank" plain>
        <p className="max-w-prose leading-7">
          Each rank keeps everything the ranks below it allow and adds the following.
        </p>
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
          Advisor, moderator and admin are roles, not ranks. An admin grants them: advisors are community leaders on
          the monk's or the warrior's path whose answers in the Council carry a "Verified advisor" mark, and who
          create challenges and events; moderators look after the discussions.
        </p>
      </ProseSection>

      <ProseSection id="start" title="Start climbing" plain>
        <p className="max-w-prose leading-7">
          Every member begins as an {rankLabel("initiate")} with 0 XP. Your
          first reply, question or completed challenge is the first step.
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
