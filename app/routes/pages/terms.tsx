import type { Route } from "./+types/terms";
import { EmailLink, ProsePage, ProseSection, TextLink } from "~/components/layout/prose-page";

export const meta: Route.MetaFunction = () => [
  { title: "Terms of Service · Inner Peace. Outer Strength." },
  {
    name: "description",
    content:
      "The plain-language terms for using Inner Peace. Outer Strength.: who can join, your account, who owns what you post, our rules, moderation and our responsibilities.",
  },
];

export default function TermsPage() {
  return (
    <ProsePage
      title="Terms of Service"
      lastUpdated="2026-11-21"
      lead={
        <p>
          These terms are the agreement between you and the people who run Inner Peace. Outer Strength. ("we",
          "us"). We have kept them short and plain. By creating an account or using the site, you accept them.
        </p>
      }
    >
      <ProseSection id="service" title="1. What the site is">
        <p>
          Inner Peace. Outer Strength. is a free community for people who train the mind and the body. Members
          discuss practice, share creations, ask and answer questions, take part in challenges and events, and earn
          XP and ranks for contributing. Anyone can read the site; you need an account to post or take part.
        </p>
      </ProseSection>

      <ProseSection id="eligibility" title="2. Who can join">
        <ul>
          <li>You must be at least 16 years old to create an account.</li>
          <li>You may hold one account, and it must be yours: do not sign up on behalf of someone else.</li>
          <li>If we have removed your account before, do not create a new one without our permission.</li>
        </ul>
      </ProseSection>

      <ProseSection id="account" title="3. Your account and its security">
        <ul>
          <li>Give us your real email address, so that password resets and notices reach you.</li>
          <li>
            Choose a strong password that you do not use elsewhere, and keep it to yourself. You are responsible for
            what happens under your account.
          </li>
          <li>
            Use "Remember me" only on a device that only you use, and sign out on shared computers.
          </li>
          <li>
            If you think someone else has used your account, reset your password straight away (this signs out every
            other session) and tell us.
          </li>
        </ul>
      </ProseSection>

      <ProseSection id="content" title="4. Your content">
        <p>
          <strong>You keep ownership</strong> of everything you post: discussions, replies, questions, answers,
          comments, creations and the files attached to them.
        </p>
        <p>
          To run the site we need your permission to show it. By posting, you grant us a worldwide, non-exclusive,
          royalty-free licence to host, store, copy, format and display your content on the site, so that other
          visitors can read it and search engines can index it. The licence lasts while your content is on the
          site; it ends when you delete the content or your account, except for copies kept for a short time in
          backups.
        </p>
        <p>
          Post only what you have the right to share. If you post someone else's work, such as a quote, a photo or a
          piece of music, make sure you are allowed to, and credit them.
        </p>
        <p>Everything you post is public. Do not post anything you would not want the whole internet to see.</p>
      </ProseSection>

      <ProseSection id="rules" title="5. Content rules">
        <p>
          Everyone here follows the <TextLink to="/code-of-conduct">Code of Conduct</TextLink>. In particular, you
          may not post or do anything that:
        </p>
        <ul>
          <li>harasses, threatens, demeans or discriminates against anyone;</li>
          <li>is illegal, or encourages self-harm, violence or dangerous training practices;</li>
          <li>infringes someone else's copyright, trademark or privacy, including sharing their personal details;</li>
          <li>is spam, advertising that nobody asked for, or a scheme to farm XP;</li>
          <li>contains malware, or tries to break, overload or get around the security of the site.</li>
        </ul>
      </ProseSection>

      <ProseSection id="moderation" title="6. Moderation">
        <p>
          Moderators and admins look after the community. They may hide content that breaks these terms or the Code
          of Conduct, restore it if it was hidden by mistake, lock discussions that have gone off course, and
          feature discussions worth reading. XP earned by content that is removed is taken back.
        </p>
        <p>
          We are not able to review everything before it appears, and we do not endorse what members post. If you
          see a problem, report it as the <TextLink to="/code-of-conduct#reporting">Code of Conduct</TextLink>{" "}
          explains.
        </p>
      </ProseSection>

      <ProseSection id="health" title="7. Health and advice">
        <p>
          Training, meditation and fasting carry risks, and members, advisors included, share their own experience,
          not professional advice. Nothing on the site is medical, psychological, legal or financial advice. Talk to
          a doctor before starting a new training programme, especially if you have a health condition, and listen
          to your body. If you are in crisis, contact your local emergency services.
        </p>
      </ProseSection>

      <ProseSection id="termination" title="8. Ending your account">
        <p>
          You can delete your account at any time in <TextLink to="/settings">Settings</TextLink>, after
          downloading your data if you want a copy.
        </p>
        <p>
          We may suspend or remove an account that seriously or repeatedly breaks these terms or the Code of
          Conduct, or that puts other members or the site at risk. Where we can, we will tell you why, and you can
          appeal as the Code of Conduct describes. We may also change or close the site; if we close it, we will give
          members reasonable notice to download their data.
        </p>
      </ProseSection>

      <ProseSection id="disclaimers" title="9. Disclaimers">
        <p>
          The site is provided free of charge, "as is" and "as available". We work to keep it running and your data
          safe, but we cannot promise that it will always be available, free of errors, or that content posted by
          members is accurate or suitable for you.
        </p>
      </ProseSection>

      <ProseSection id="liability" title="10. Limitation of liability">
        <p>
          To the fullest extent the law allows, we are not liable for indirect or consequential losses, for loss of
          data or content, or for anything that results from content posted by members or from taking part in
          challenges and events. Nothing in these terms limits liability that cannot be limited by law, such as
          liability for death or personal injury caused by negligence, or your rights as a consumer.
        </p>
      </ProseSection>

      <ProseSection id="changes" title="11. Changes to these terms">
        <p>
          We may update these terms as the site grows. The date at the top shows the latest version. If a change
          matters, we will announce it on the site before it takes effect; if you keep using the site afterwards,
          the new terms apply. If you do not agree, you can delete your account.
        </p>
      </ProseSection>

      <ProseSection id="contact" title="12. Contact">
        <p>
          Questions about these terms? Write to us at <EmailLink />. How we handle your personal data is set out in
          our <TextLink to="/privacy">Privacy Policy</TextLink>.
        </p>
      </ProseSection>
    </ProsePage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
