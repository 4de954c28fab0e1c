import { useEffect } from "react";
import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { Link } from "~/components/ui/link";

/** The seed's not-found page; the attempted path goes to the browser console, as the seed says. */
export function NotFoundScreen() {
  const location = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4">
      <div className="text-center">
        <h1 className="mb-4 text-6xl font-bold">404</h1>
        <p className="mb-6 text-xl text-muted">Oops! Page not found</p>
        <Link to="/" className="font-semibold text-monk-strong underline underline-offset-4 hover:text-monk">
          Return to Home
        </Link>
      </div>
    </div>
  );
}

export function UnexpectedErrorScreen({ detail }: { detail?: string }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4">
      <div className="max-w-2xl text-center">
        <h1 className="mb-4 text-3xl font-bold">Unexpected Application Error!</h1>
        <p className="mb-6 text-muted">Something went wrong on our side. Please try again in a moment.</p>
        {detail ? <pre className="mb-6 overflow-x-auto rounded-md bg-stone-100 p-4 text-left text-sm">{detail}</pre> : null}
        <Link to="/" className="font-semibold text-monk-strong underline underline-offset-4 hover:text-monk">
          Return to Home
        </Link>
      </div>
    </div>
  );
}

export function StatusScreen({ status, message }: { status: number; message: string }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4">
      <div className="text-center">
        <h1 className="mb-4 text-5xl font-bold">{status}</h1>
        <p className="mb-6 text-xl text-muted">{message}</p>
        <Link to="/" className="font-semibold text-monk-strong underline underline-offset-4 hover:text-monk">
          Return to Home
        </Link>
      </div>
    </div>
  );
}

/** Shown with a 503 while the site cannot reach its database; the page itself needs no data. */
export function UnavailableScreen() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4">
      <div className="max-w-2xl text-center">
        <h1 className="mb-4 text-3xl font-bold">Temporarily unavailable</h1>
        <p className="mb-6 text-muted">The site is taking a short breath and cannot load this page right now. Please try again in a few moments.</p>
        <a href="" className="font-semibold text-monk-strong underline underline-offset-4 hover:text-monk">
          Try again
        </a>
      </div>
    </div>
  );
}

/** The screen for the error a route caught; `RouteErrorBoundary` (route-error-boundary.tsx) renders it. */
export function RouteErrorScreen() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      // A route that says more than "Not found" (a mailed link that is used up or made up) is shown
      // in its own words; every other 404, React Router's own included (its data is an Error), is
      // the seed's not-found page.
      if (typeof error.data === "string" && error.data && error.data !== "Not found") return <StatusScreen status={404} message={error.data} />;
      return <NotFoundScreen />;
    }
    if (error.status === 503) return <UnavailableScreen />;
    const message = typeof error.data === "string" && error.data ? error.data : error.statusText || "Something went wrong";
    return <StatusScreen status={error.status} message={message} />;
  }
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return <UnexpectedErrorScreen detail={detail} />;
}
