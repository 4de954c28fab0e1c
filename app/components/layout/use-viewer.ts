import { useRouteLoaderData } from "react-router";
import type { NavViewer } from "./navigation-bar";

/**
 * The signed-in member as the root loader saw them, or null. For pages whose calls to action
 * differ for members (a member is never sent to /join), without a loader of their own.
 */
export function useViewer(): NavViewer | null {
  const data = useRouteLoaderData("root") as { viewer: NavViewer | null } | undefined;
  return data?.viewer ?? null;
}
