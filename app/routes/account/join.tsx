import { CheckCircle2 } from "~/components/ui/icons/check-circle-2";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/join";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { ButtonLink, Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox, FieldError, FormAlert, Label, TextField, Textarea } from "~/components/ui/form-controls";
import { requestContext, servicesContext, viewerContext } from "~/.server/context";
import { refuseJoin, registerMember } from "~/.server/domain/accounts/account-service";
import { parseFormOrRefusal } from "~/.server/forms";
import { useNonce } from "~/components/layout/nonce";
import { DEFAULT_TIME_ZONE } from "~/lib/time-zones";
import { joinSchema } from "~/schemas/account";
import { PASSWORD_HINT } from "~/schemas/password-rules";
import { INTERESTS, JOIN_CHECKBOXES, type InterestId } from "~/schemas/fields";
import type { FieldErrors } from "~/schemas/form-data";

export const meta: Route.MetaFunction = () => [
  { title: "Join the Path · Inner Peace. Outer Strength." },
  { name: "description", content: "Create your account and begin your journey toward inner peace and outer strength." },
];

export function loader({ context }: Route.LoaderArgs) {
  return { signedIn: context.get(viewerContext) !== null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const ip = context.get(requestContext).clientIp;
  // An unreadable form answers like an invalid one: every refused join counts (issue 25).
  const parsed = await parseFormOrRefusal(request, joinSchema, JOIN_CHECKBOXES);
  const values = echo(parsed.raw);
  const result = parsed.ok ? await registerMember(services, parsed.values, { headers: request.headers, ip }) : await refuseJoin(services, parsed.errors, ip);
  if (!result.ok) return data({ registered: false as const, errors: result.errors, values }, { status: result.status });
  // The page rendered with this response already belongs to the new member (without JavaScript
  // there is no second request to pick up the cookie).
  context.set(viewerContext, result.viewer);
  return data({ registered: true as const, errors: {} as FieldErrors, values: {} as Echo }, { headers: result.headers });
}

type Echo = { fullName?: string; email?: string; bio?: string; interests?: Partial<Record<InterestId, boolean>>; termsAccepted?: boolean };

/**
 * What goes back into the form after a failed post: the form's own fields, each bounded; never the
 * passwords, nor anything else the post carried.
 */
function echo(raw: Record<string, unknown>): Echo {
  const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 1000) : undefined);
  const sent = (raw.interests ?? {}) as Record<string, unknown>;
  return {
    fullName: text(raw.fullName),
    email: text(raw.email),
    bio: text(raw.bio),
    interests: Object.fromEntries(INTERESTS.map(({ id }) => [id, sent[id] === true])),
    termsAccepted: raw.termsAccepted === true,
  };
}

function RegistrationSuccessful() {
  // The form that had focus is gone: focus the result's heading so a screen reader reads it and the
  // next Tab lands on 'Continue to Dashboard', instead of focus falling back to the page's body.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card role="status">
      <CardHeader className="items-center text-center">
        <CheckCircle2 aria-hidden="true" className="size-12 text-green-700" />
        <CardTitle ref={heading} tabIndex={-1} className="outline-none">
          Registration Successful!
        </CardTitle>
        <CardDescription className="text-base">Thank you for joining the community. Your journey begins now.</CardDescription>
      </CardHeader>
      <CardFooter className="justify-center">
        <ButtonLink to="/dashboard" variant="monk">
          Continue to Dashboard
        </ButtonLink>
      </CardFooter>
    </Card>
  );
}

const TIME_ZONE_INPUT = "join-time-zone";
const FILL_TIME_ZONE = `try{document.getElementById("${TIME_ZONE_INPUT}").value=Intl.DateTimeFormat().resolvedOptions().timeZone}catch(e){}`;

const noSubscription = () => () => {};
function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE; // an old browser without Intl time zones
  }
}

/**
 * The member's time zone as the browser knows it (issue 11): a tiny inline script fills the hidden
 * field as soon as it is parsed (a join posted before hydration has it); once React hydrates, or on
 * a join page reached by client navigation, the browser's snapshot keeps it. Without JavaScript
 * the field stays "UTC".
 */
function BrowserTimeZone() {
  const nonce = useNonce();
  // React owns the value once it hydrates (it would otherwise put the server's "UTC" back): the
  // server renders UTC, the browser its own zone.
  const zone = useSyncExternalStore(noSubscription, browserZone, () => DEFAULT_TIME_ZONE);
  return (
    <>
      <input type="hidden" id={TIME_ZONE_INPUT} name="timeZone" value={zone} />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: FILL_TIME_ZONE }} />
    </>
  );
}

function JoinForm({ serverErrors, values }: { serverErrors?: FieldErrors; values?: Echo }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === "/join";
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/account").then((m) => m.joinSchema), JOIN_CHECKBOXES, serverErrors);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create Your Account</CardTitle>
      </CardHeader>
      <Form method="post" action="/join" noValidate onSubmit={onSubmit} onChange={onChange}>
        <CardContent className="flex flex-col gap-5">
          <FormAlert>{errors.form}</FormAlert>
          <BrowserTimeZone />
          <TextField name="fullName" label="Full Name" autoComplete="name" defaultValue={values?.fullName} error={errors.fullName} />
          <TextField name="email" label="Email" type="email" autoComplete="email" defaultValue={values?.email} error={errors.email} />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField name="password" label="Password" type="password" autoComplete="new-password" hint={PASSWORD_HINT} error={errors.password} />
            <TextField name="confirmPassword" label="Confirm Password" type="password" autoComplete="new-password" error={errors.confirmPassword} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="bio">
              Bio <span className="font-normal text-muted">(optional)</span>
            </Label>
            <Textarea
              id="bio"
              name="bio"
              rows={3}
              defaultValue={values?.bio}
              placeholder="Tell us a little about your path…"
              aria-invalid={errors.bio ? true : undefined}
              aria-describedby={errors.bio ? "bio-error" : undefined}
            />
            <FieldError id="bio-error">{errors.bio}</FieldError>
          </div>
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 text-sm font-medium">Your Primary Interests</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {INTERESTS.map((interest) => (
                <div key={interest.id} className="flex items-center gap-2">
                  <Checkbox id={`interest-${interest.id}`} name={`interests.${interest.id}`} defaultChecked={values?.interests?.[interest.id] === true} />
                  <Label htmlFor={`interest-${interest.id}`} className="font-normal">
                    {interest.label}
                  </Label>
                </div>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-col gap-2">
            <div className="flex items-start gap-2">
              <Checkbox
                id="termsAccepted"
                name="termsAccepted"
                className="mt-0.5"
                defaultChecked={values?.termsAccepted}
                aria-invalid={errors.termsAccepted ? true : undefined}
                aria-describedby={errors.termsAccepted ? "termsAccepted-error" : undefined}
              />
              <Label htmlFor="termsAccepted" className="font-normal">
                I agree to the{" "}
                <Link to="/terms" className="font-medium text-monk-strong underline">
                  Terms of Service
                </Link>{" "}
                and{" "}
                <Link to="/privacy" className="font-medium text-monk-strong underline">
                  Privacy Policy
                </Link>
              </Label>
            </div>
            <FieldError id="termsAccepted-error">{errors.termsAccepted}</FieldError>
          </div>
        </CardContent>
        <CardFooter className="flex-col gap-4">
          <Button type="submit" variant="monk" className="w-full" disabled={busy}>
            {busy ? "Processing..." : "Join the Movement"}
          </Button>
          <p className="text-sm text-muted">
            Already a member?{" "}
            <Link to="/signin" className="font-semibold text-monk-strong underline">
              Sign in
            </Link>
          </p>
        </CardFooter>
      </Form>
    </Card>
  );
}

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <div className="mb-8 text-center">
        <h1 className="font-serif text-4xl font-bold">Join the Path</h1>
        <p className="mt-3 text-lg text-stone-700">Begin your journey toward inner peace and outer strength.</p>
      </div>
      {actionData?.registered ? (
        <RegistrationSuccessful />
      ) : loaderData.signedIn && !actionData ? (
        <Card>
          <CardHeader>
            <CardTitle>You are already a member</CardTitle>
            <CardDescription>You are signed in. Your dashboard shows your rank and progress.</CardDescription>
          </CardHeader>
          <CardFooter>
            <ButtonLink to="/dashboard" variant="monk">
              Continue to Dashboard
            </ButtonLink>
          </CardFooter>
        </Card>
      ) : (
        <JoinForm serverErrors={actionData?.errors} values={actionData?.values} />
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
