import type { Route } from "./+types/manifesto";
import { VirtueBadge } from "~/components/community/badges";
import { ProsePage, ProseSection, TextLink } from "~/components/layout/prose-page";
import { useViewer } from "~/components/layout/use-viewer";
import { ButtonLink } from "~/components/ui/button";
import { VIRTUES, type Virtue } from "~/lib/virtues";

export const meta: Route.MetaFunction = () => [
  { title: "Our Manifesto · Inner Peace. Outer Strength." },
  {
    name: "description",
    content:
      "What we believe: inner peace and outer strength are one practice. The monk's path, the warrior's path, the six virtues, and how we treat each other.",
  },
];

/** What each virtue asks of us; keyed by id so a new virtue cannot be left without a line. */
const VIRTUE_BELIEFS: Record<Virtue, string> = {
  discipline: "Small promises kept every day beat grand plans abandoned by Friday.",
  courage: "Fear is information, not an instruction. We act with it rather than wait for it to leave.",
  wisdom: "Knowledge becomes wisdom only when it changes what we do.",
  honor: "We say what we mean, do what we say, and own it when we fall short.",
  resilience: "Setbacks are part of the training plan, not proof that the plan has failed.",
  compassion: "The patience we give others and the patience we give ourselves are the same muscle.",
};

export default function ManifestoPage() {
  const member = useViewer() !== null;
  return (
    <ProsePage
      title="Our Manifesto"
      lead={
        <p>
          A calm mind and a strong body are not two projects competing for your time. They are one practice, and
          this community exists to train it.
        </p>
      }
    >
      <ProseSection id="one-practice" title="Inner peace and outer strength are one practice">
        <p>
          Stillness without strength turns into escape. Strength without stillness turns into noise. The meditator
          who cannot climb a flight of stairs and the lifter who cannot sit with an uncomfortable thought for five
          minutes are each missing half of the same skill: choosing how to respond instead of simply reacting.
        </p>
        <p>
          So we train both. Ten minutes on the cushion makes the hard set easier to start; the hard set makes the
          next ten minutes on the cushion easier to stay with. Inner peace is what lets strength be used well. Outer
          strength is what lets peace survive a bad day.
        </p>
      </ProseSection>

      <ProseSection id="monk" title="The monk's path">
        <p>
          The monk trains attention. That means meditation and breath work, journaling, reading the Stoics, the
          Buddhist teachers, the Tao Te Ching and anyone else with something true to say about living well, then
          testing those ideas against an ordinary Tuesday.
        </p>
        <ul>
          <li>
            <strong>Mindfulness:</strong> noticing what is happening, in you and around you, before you act on it.
          </li>
          <li>
            <strong>Philosophy:</strong> asking what a good life is, and being willing to change your answer.
          </li>
          <li>
            <strong>Restraint:</strong> doing less, on purpose, when less is what the moment needs.
          </li>
        </ul>
        <p>
          The monk's home here is the <TextLink to="/monastery">Monastery</TextLink>.
        </p>
      </ProseSection>

      <ProseSection id="warrior" title="The warrior's path">
        <p>
          The warrior trains action. That means fitness and movement, doing the thing you said you would do, and
          leading, in a family, a team or a neighbourhood, when someone has to go first.
        </p>
        <ul>
          <li>
            <strong>Action:</strong> showing up, especially on the days motivation does not.
          </li>
          <li>
            <strong>Fitness:</strong> a body that can carry you, and carry someone else if it has to.
          </li>
          <li>
            <strong>Leadership:</strong> taking responsibility for more than yourself, and serving the people you
            lead.
          </li>
        </ul>
        <p>
          The warrior's home here is the <TextLink to="/battlefield">Battlefield</TextLink>. Nobody here is only a
          monk or only a warrior. Most of us arrive leaning one way; the practice is learning the other.
        </p>
      </ProseSection>

      <ProseSection id="virtues" title="The six virtues">
        <p>
          We measure growth by six virtues. Three lean toward the monk, three toward the warrior, and a master holds
          all six.
        </p>
        <ul className="space-y-3">
          {VIRTUES.map((v) => (
            <li key={v.id} className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:gap-3">
              <span className="shrink-0 sm:w-28">
                <VirtueBadge virtue={v.id} />
              </span>
              <span>{VIRTUE_BELIEFS[v.id]}</span>
            </li>
          ))}
        </ul>
        <p>
          Virtues are trained, not claimed: each one grows through challenges you complete. The{" "}
          <TextLink to="/ranks">Rank System</TextLink> explains how.
        </p>
      </ProseSection>

      <ProseSection id="each-other" title="How we treat each other">
        <ul>
          <li>We come here to get better, not to look better. Share the struggle as honestly as the win.</li>
          <li>We assume good faith. A beginner's question gets the same care as an expert's.</li>
          <li>
            We disagree about ideas and never attack people. Strength shows in restraint, not in winning an argument.
          </li>
          <li>We give credit. When a post, an answer or a creation helped you, say so.</li>
          <li>We respect limits. No one owes anyone their story, their photo or their time.</li>
          <li>We keep each other safe. We report harm instead of scrolling past it, and moderators act on reports.</li>
        </ul>
        <p>
          The details are in our <TextLink to="/code-of-conduct">Code of Conduct</TextLink>. Joining means agreeing
          to it.
        </p>
      </ProseSection>

      <ProseSection id="together" title="What we build together">
        <p>
          Everything here is made by members, for members, and kept in public so that anyone searching for help can
          find it.
        </p>
        <ul>
          <li>
            In the Monastery and the Battlefield: topics and discussions where practice is compared, questioned and
            improved.
          </li>
          <li>
            In the <TextLink to="/forge">Forge</TextLink>: writing, visual art, music and projects, proof that
            discipline can make something worth sharing.
          </li>
          <li>
            In the <TextLink to="/council">Council</TextLink>: questions answered by members and by verified
            advisors, community leaders on the monk's or the warrior's path.
          </li>
          <li>
            In challenges and <TextLink to="/events">events</TextLink>: practice done side by side, from a
            thirty-day sit to a Saturday group run.
          </li>
        </ul>
        <p>
          What you contribute earns XP and carries you up the ranks, from Initiate to Master. The ranks are not a
          prize. They are a map of where you have been practising, and of where you have not yet looked.
        </p>
      </ProseSection>

      <ProseSection id="begin" title="Take the first step" plain>
        <p className="max-w-prose leading-7">
          Start where you are: one sit, one walk, one honest question. The path is long, and it is better walked
          together.
        </p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {member ? (
            <ButtonLink to="/dashboard" size="lg">
              Continue Your Path
            </ButtonLink>
          ) : (
            <ButtonLink to="/join" size="lg">
              Join the Path
            </ButtonLink>
          )}
          <ButtonLink to="/ranks" size="lg" variant="outline">
            See the Rank System
          </ButtonLink>
        </div>
      </ProseSection>
    </ProsePage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
