import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFoundScreen } from "~/components/layout/error-screens";

export const meta: Route.MetaFunction = () => [
  { title: "Page not found · Inner Peace. Outer Strength." },
  { name: "description", content: "The page you are looking for does not exist or has moved." },
];

// Any unknown path: the seed's 404 page, with a real 404 status.
export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
