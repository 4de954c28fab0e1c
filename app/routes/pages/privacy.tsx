import type { Route } from "./+types/privacy";
import { EmailLink, ProsePage, ProseSection, TextLink } from "~/components/layout/prose-page";

export const meta: Route.MetaFunction = () => [
  { title: "Privacy Policy · Inner Peace. Outer Strength." },
  {
    name: "description",
    content:
      "What Inner Peace. Outer Strength. collects, why, and for how long. No ads, no selling data, no third-party trackers. Download or delete your data at any time.",
  },
];

export default function PrivacyPage() {
  return (
    <ProsePage
      title="Privacy Policy"
      lastUpdated="2026-11-21"
      lead={
        <p>
          We collect only what the community needs to work, we use it only to run the site, and you can take it
          with you or delete it whenever you like.
        </p>
      }
    >
      <ProseSection id="collect" title="What we collect">
        <h3>Your account</h3>
        <ul>
          <li>Your name, your email address, and the bio and interests you choose to add.</li>
          <li>
            Your password, stored only as a one-way hash. We never store or log it in clear, and nobody here can read
            it.
          </li>
          <li>
            Your progress: XP, rank, virtue levels, the challenges you join and your check-ins, and your RSVPs to
            events.
          </li>
        </ul>

        <h3>What you post</h3>
        <p>
          Discussions, replies, questions, answers, comments, creations and their images or audio files, along with
          the likes and helpful marks you give. Photo metadata (such as the location a picture was taken) is stripped
          from images when you upload them.
        </p>

        <h3>Cookies</h3>
        <ul>
          <li>
            A session cookie that keeps you signed in, and is used for nothing else. It is HttpOnly, so scripts in the
            page cannot read it. Without "Remember me" it ends when you close your browser; with "Remember me" it
            lasts 30 days.
          </li>
          <li>
            A short-lived cookie that carries a one-time message, such as "Welcome back!", to the next page. It is
            cleared as soon as the message is shown.
          </li>
        </ul>
        <p>There are no advertising, analytics or tracking cookies.</p>

        <h3>IP addresses</h3>
        <p>
          To stop people guessing passwords we count sign-in attempts per email address and per IP address: after 10
          attempts in 15 minutes, further attempts must wait. IP addresses are used for this rate limit and nothing
          else.
        </p>
        <p>
          To count how many different people viewed a Council question each day, we combine your IP address with a
          secret salt and keep only the resulting hash. Your address is never stored in clear for view counts.
        </p>

        <h3>Newsletter</h3>
        <p>
          When you enter your address in the newsletter box we send a single confirmation email. Your address joins
          the mailing list only after you confirm it by clicking the link in that email; until then it receives
          nothing else from us.
        </p>
      </ProseSection>

      <ProseSection id="use" title="How we use it">
        <ul>
          <li>To run your account: sign you in, keep you signed in, and reset your password when you ask.</li>
          <li>To show your posts, profile, rank and virtues to the community.</li>
          <li>To award XP, track challenges, and hold your place at events.</li>
          <li>To send the emails you asked for: account emails such as password resets, and the newsletter if you confirmed it.</li>
          <li>To protect the site and its members from abuse, spam and password guessing.</li>
        </ul>
      </ProseSection>

      <ProseSection id="public" title="What is public">
        <p>
          The community is open to read. Your name, profile (rank, virtues, bio, interests) and everything you post
          can be seen by anyone, and search engines may index it. Your email address, password hash, sign-in records
          and newsletter subscription are never shown.
        </p>
      </ProseSection>

      <ProseSection id="not" title="What we do not do">
        <ul>
          <li>No ads, and no advertising networks.</li>
          <li>We do not sell, rent or trade your data, to anyone.</li>
          <li>No third-party trackers, analytics scripts, tracking pixels or social-media widgets.</li>
          <li>We do not read your password, and we never send your data to another company for its own purposes.</li>
        </ul>
        <p>
          When the site sends email it may pass the message to an email delivery service, which handles it only to
          deliver it to you.
        </p>
      </ProseSection>

      <ProseSection id="retention" title="How long we keep it">
        <ul>
          <li>Account details and progress: for as long as your account exists.</li>
          <li>
            Posts: until you delete them or your account. When a post that others replied to is deleted, its text is
            removed and it shows as "[deleted]", so the rest of the conversation stays readable.
          </li>
          <li>Sessions: until you sign out, the browser session ends, or 30 days with "Remember me".</li>
          <li>Sign-in attempt counts: only as long as the 15-minute limit needs them.</li>
          <li>Newsletter address: until you unsubscribe, which takes one click from any newsletter.</li>
          <li>Backups: copies are kept for a limited time for recovery and are replaced as new backups are made.</li>
        </ul>
      </ProseSection>

      <ProseSection id="rights" title="Your rights">
        <p>Wherever you live, you can:</p>
        <ul>
          <li>
            <strong>See and take your data:</strong> download everything we hold about your account as a JSON file
            from <TextLink to="/settings">Settings</TextLink>.
          </li>
          <li>
            <strong>Correct it:</strong> edit your name, bio and interests in Settings, and your posts wherever they
            appear.
          </li>
          <li>
            <strong>Delete it:</strong> delete your account in Settings. This is permanent.
          </li>
          <li>
            <strong>Stop the newsletter:</strong> use the one-click unsubscribe link in any newsletter.
          </li>
          <li>
            <strong>Ask or object:</strong> write to us about anything else, such as changing your email address,
            and we will answer within 30 days. You may also complain to your local data protection authority.
          </li>
        </ul>
      </ProseSection>

      <ProseSection id="security" title="How we protect it">
        <p>
          Passwords are hashed, session cookies are HttpOnly and sent only over encrypted connections in production,
          sign-in attempts are rate limited, and a password reset link works once and only for one hour; resetting
          your password signs out every other session.
        </p>
      </ProseSection>

      <ProseSection id="age" title="Age">
        <p>
          You must be at least 16 to create an account, as our <TextLink to="/terms">Terms of Service</TextLink> say.
          If you believe someone younger has joined, tell us and we will remove the account.
        </p>
      </ProseSection>

      <ProseSection id="changes" title="Changes to this policy">
        <p>
          If we change what we collect or how we use it, we will update this page and its date, and announce
          important changes on the site before they apply.
        </p>
      </ProseSection>

      <ProseSection id="contact" title="Contact">
        <p>
          Questions about your data or this policy? Write to us at <EmailLink />.
        </p>
      </ProseSection>
    </ProsePage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
