import type { Route } from "./+types/code-of-conduct";
import { EmailLink, ProsePage, ProseSection, TextLink } from "~/components/layout/prose-page";

export const meta: Route.MetaFunction = () => [
  { title: "Code of Conduct · Inner Peace. Outer Strength." },
  {
    name: "description",
    content:
      "How we treat each other at Inner Peace. Outer Strength.: expected and unacceptable behaviour, how moderators act, how to report, consequences and appeals.",
  },
];

export default function CodeOfConductPage() {
  return (
    <ProsePage
      title="Code of Conduct"
      lead={
        <p>
          People come here to work on themselves, often on things that are hard to say out loud. This code protects
          that. It applies everywhere on the site (the Monastery, the Battlefield, the Forge, the Council, profiles
          and challenges) and at every event, online or in person.
        </p>
      }
    >
      <ProseSection id="expected" title="Expected behaviour">
        <ul>
          <li>
            <strong>Be honest.</strong> Share what actually happened, including the setbacks. Say so when you are
            not sure.
          </li>
          <li>
            <strong>Be kind, especially to beginners.</strong> Every master was once an initiate who asked the
            obvious question.
          </li>
          <li>
            <strong>Argue with ideas, not people.</strong> Disagree openly and specifically, then let it rest. You
            do not need the last word.
          </li>
          <li>
            <strong>Stay on topic.</strong> Post in the topic that fits, and read a discussion before replying to
            it.
          </li>
          <li>
            <strong>Give credit.</strong> Name your sources, credit other people's work, and thank those who helped.
          </li>
          <li>
            <strong>Respect privacy.</strong> What someone shares about their life stays with them; do not repost it
            elsewhere or share anyone's personal details.
          </li>
          <li>
            <strong>Advise with care.</strong> Say what worked for you, not what everyone must do, and point people
            to professionals for medical or mental-health questions.
          </li>
        </ul>
      </ProseSection>

      <ProseSection id="unacceptable" title="Unacceptable behaviour">
        <ul>
          <li>Harassment, insults, threats, or following someone around the site after they have asked you to stop.</li>
          <li>
            Discrimination or slurs based on race, ethnicity, nationality, religion, gender, gender identity, sexual
            orientation, disability, age, body or fitness level.
          </li>
          <li>Sexual content or unwanted sexual attention.</li>
          <li>
            Encouraging self-harm, eating disorders, or dangerous training, fasting or breathing practices.
          </li>
          <li>Sharing someone's personal information, messages or photos without their consent.</li>
          <li>Spam, advertising nobody asked for, and schemes to farm XP, likes or helpful marks.</li>
          <li>Impersonating another member, an advisor or a moderator.</li>
          <li>Posting work that is not yours as your own, or content you do not have the right to share.</li>
        </ul>
      </ProseSection>

      <ProseSection id="moderators" title="How moderators act">
        <p>
          Moderators are members trusted by the admins to look after the community. They review reports and, when
          something breaks this code, they can:
        </p>
        <ul>
          <li>
            <strong>hide content</strong>, which takes it off public view; hidden content can be restored if it was
            hidden by mistake;
          </li>
          <li>
            <strong>lock a discussion</strong>, which keeps it readable but closes it to new replies when it has
            turned into an argument or has run its course;
          </li>
          <li>
            <strong>feature a discussion</strong> that shows the community at its best.
          </li>
        </ul>
        <p>
          Admins do everything moderators do, and decide on suspensions, account removals and appeals. Moderators
          act on behaviour, not on opinions: a view you disagree with, stated respectfully, is not a violation.
        </p>
      </ProseSection>

      <ProseSection id="reporting" title="How to report">
        <ul>
          <li>
            <strong>On the site:</strong> sign in and use the report option on the post, reply, creation, question,
            answer or comment. A moderator reviews every report, and the person you report is not told who reported
            them.
          </li>
          <li>
            <strong>By email:</strong> for anything that does not fit a report, or that you would rather tell us in
            private, write to <EmailLink />.
          </li>
          <li>
            <strong>At an event:</strong> tell the host straight away, then email us so the admins know.
          </li>
        </ul>
        <p>
          If someone is in immediate danger, contact your local emergency services first. The community cannot
          replace them.
        </p>
      </ProseSection>

      <ProseSection id="consequences" title="Consequences">
        <p>We respond in proportion to the harm, usually in this order:</p>
        <ol>
          <li>a private reminder of this code;</li>
          <li>the content is hidden, or the discussion is locked;</li>
          <li>a formal warning;</li>
          <li>a suspension from posting for a set time;</li>
          <li>removal of the account.</li>
        </ol>
        <p>
          Serious harm, such as threats, sexual harassment, hate speech or sharing someone's private information,
          can lead straight to removal, without earlier steps. Creating a new account to get around a suspension or
          removal leads to that account's removal too.
        </p>
      </ProseSection>

      <ProseSection id="appeals" title="Appeals">
        <p>
          If you think a moderator got it wrong, write to <EmailLink /> within 30 days, say which content or decision
          you mean, and tell us why. An admin who was not involved in the original decision reviews it and answers
          you, usually within 14 days. If we were wrong, we restore the content and say so.
        </p>
        <p>
          This code is part of our <TextLink to="/terms">Terms of Service</TextLink>. The spirit behind it is in our{" "}
          <TextLink to="/manifesto">manifesto</TextLink>.
        </p>
      </ProseSection>
    </ProsePage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
