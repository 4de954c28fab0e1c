import { Link } from "~/components/ui/link";

/** "Sign in to reply or join the path", coming back to this page after signing in. */
export function SignInPrompt({ returnTo, action }: { returnTo: string; action: string }) {
  return (
    <p className="rounded-md bg-stone-100 p-4 text-stone-700">
      <Link to={`/signin?redirectTo=${encodeURIComponent(returnTo)}`} className="font-semibold text-monk-strong underline">
        Sign in to {action}
      </Link>{" "}
      or{" "}
      <Link to="/join" className="font-semibold text-monk-strong underline">
        join the path
      </Link>
      .
    </p>
  );
}
