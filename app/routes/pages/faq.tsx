import type { ReactNode } from "react";
import type { Route } from "./+types/faq";
import { ProsePage, ProseSection, TextLink } from "~/components/layout/prose-page";

export const meta: Route.MetaFunction = () => [
  { title: "FAQ · Inner Peace. Outer Strength." },
  {
    name: "description",
    content:
      "Answers about the community: the monk's and the warrior's paths, XP and ranks, virtues, advisors, your data, deleting your account, the newsletter and our rules.",
  },
];

function Question({ question, children }: { question: string; children: ReactNode }) {
  return (
    <details className="group rounded-lg border border-line bg-white">
      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 px-5 py-4 font-semibold [&::-webkit-details-marker]:hidden">
        <span>{question}</span>
        <span aria-hidden="true" className="shrink-0 text-muted transition-transform group-open:rotate-45">
          +
        </span>
      </summary>
      <div className="space-y-3 border-t border-line px-5 py-4 leading-7 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">
        {children}
      </div>
    </details>
  );
}

export default function FaqPage() {
  return (
    <ProsePage
      title="Frequently Asked Questions"
      lead={<p>Short answers to the questions new members ask most. Open a question to read its answer.</p>}
    >
      <ProseSection id="community" title="The community" plain>
        <div className="space-y-3">
          <Question question="What is Inner Peace. Outer Strength.?">
            <p>
              A community for people who train both the mind and the body. Members discuss practice in the{" "}
              <TextLink to="/monastery">Monastery</TextLink> (mindfulness, meditation, philosophy) and the{" "}
              <TextLink to="/battlefield">Battlefield</TextLink> (action, fitness, leadership), share writing, art,
              music and projects in the <TextLink to="/forge">Forge</TextLink>, ask questions in the{" "}
              <TextLink to="/council">Council</TextLink>, take on challenges and meet at events.
            </p>
          </Question>
          <Question question="Do I have to choose between the monk's path and the warrior's path?">
            <p>
              No. Everyone can read and post in both the Monastery and the Battlefield, and most members lean one way
              when they arrive. The point is to grow the side you practise less: the highest rank, Master, needs all
              six virtues trained, three from each path. Our <TextLink to="/manifesto">manifesto</TextLink> explains
              why.
            </p>
          </Question>
          <Question question="Is it free?">
            <p>
              Yes. Joining, posting, challenges, events and the newsletter cost nothing. There are no ads and no paid
              tiers, and we do not sell your data.
            </p>
          </Question>
        </div>
      </ProseSection>

      <ProseSection id="progress" title="XP, ranks and virtues" plain>
        <div className="space-y-3">
          <Question question="How do I earn XP?">
            <p>Each contribution earns experience points (XP) once:</p>
            <ul>
              <li>start a discussion: 5 XP; reply in one: 2 XP;</li>
              <li>ask a question: 2 XP; answer one: 5 XP; your answer is accepted: 15 XP;</li>
              <li>your answer is marked helpful: 2 XP;</li>
              <li>share a creation: 10 XP; your creation is liked: 1 XP;</li>
              <li>check in to a challenge: 1 XP (once a day); complete a challenge: 25 XP.</li>
            </ul>
            <p>
              XP from other members' helpful marks and likes counts at most 50 a day. If content is removed, the XP
              it earned is taken back.
            </p>
          </Question>
          <Question question="How do ranks work?">
            <p>
              Your rank follows your total XP: Initiate from 0, Acolyte from 50, Disciple from 150, Sage from 400,
              Samurai from 800, Warlord from 1,500 and Master from 3,000. Master also needs each of the six virtues at
              level 2 or more; until then you stay Warlord.
            </p>
            <p>
              Ranks unlock tools: Acolytes can like and mark answers helpful, and have no daily limit on new posts
              (Initiates may start 3 discussions, questions or creations a day); Disciples can create topics; Sages
              and above can propose challenges. The <TextLink to="/ranks">Rank System</TextLink> has the details.
            </p>
          </Question>
          <Question question="What are the virtues, and how do they level up?">
            <p>
              Six virtues: wisdom, discipline and compassion on the monk's path; courage, honor and resilience on the
              warrior's. Each <TextLink to="/challenges">challenge</TextLink> trains one or two of them. A virtue
              reaches level 1 after 1 completed challenge that trains it, level 2 after 3, and level 3 after 6. A
              virtue you have not trained yet does not show on your profile.
            </p>
          </Question>
          <Question question="Who are the advisors?">
            <p>
              Advisors are members an admin has verified as community leaders on the monk's or the warrior's path,
              each with a specialty, such as meditation or strength training. Their answers in the Council carry a
              "Verified advisor" mark, and they create the site's challenges and host its events. The Council
              features the three advisors with the most accepted answers.
            </p>
            <p>
              Advisors share experience, not professional advice. For medical, mental-health or legal questions,
              please see a qualified professional.
            </p>
          </Question>
        </div>
      </ProseSection>

      <ProseSection id="account" title="Your account and data" plain>
        <div className="space-y-3">
          <Question question="What do you do with my data?">
            <p>
              We use it to run the site and nothing else. Your password is stored only as a hash, your email address
              is never shown to other members, the only cookies keep you signed in, and there are no ads or
              third-party trackers. Your name, profile and posts are public. The{" "}
              <TextLink to="/privacy">Privacy Policy</TextLink> lists everything we keep and for how long.
            </p>
          </Question>
          <Question question="How do I download my data or delete my account?">
            <p>
              Sign in and open <TextLink to="/settings">Settings</TextLink>. There you can download your data as a
              JSON file, with your account details and everything you have posted, and delete your account. Deleting
              is permanent and cannot be undone, so download your data first if you want to keep a copy.
            </p>
          </Question>
          <Question question="I forgot my password. What now?">
            <p>
              Use "Forgot password?" on the <TextLink to="/signin">sign-in page</TextLink>. We email you a link that
              works once and for one hour. Setting a new password signs you out on every other device.
            </p>
          </Question>
          <Question question="How does the newsletter work, and how do I unsubscribe?">
            <p>
              Enter your email in the box at the bottom of any page. We send one confirmation email; you only receive
              the newsletter after you click its link. Every newsletter has a one-click unsubscribe link at the
              bottom. One click, and no more mail.
            </p>
          </Question>
        </div>
      </ProseSection>

      <ProseSection id="conduct" title="Conduct" plain>
        <div className="space-y-3">
          <Question question="What are the rules, and how do I report a problem?">
            <p>
              Our <TextLink to="/code-of-conduct">Code of Conduct</TextLink> comes down to this: be honest, be kind,
              argue with ideas and never with people, and keep others safe. If you see something that breaks it,
              report it and a moderator will review it. Moderators can hide content and lock discussions; repeated
              or serious harm can cost an account.
            </p>
          </Question>
        </div>
      </ProseSection>
    </ProsePage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
