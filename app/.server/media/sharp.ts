import type Sharp from "sharp";

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded the first time a picture is decoded or drawn (issue 29's item 5): libvips and its
 * libraries are some 22 MB of resident memory, which a server that has not yet been sent an upload or
 * asked for a shared link's picture need not hold, and a start that does not load them is sooner.
 */
export function loadSharp(): Promise<typeof Sharp> {
  return (loading ??= import("sharp").then(
    ({ default: sharp }) => {
      // An upload is read once: libvips' cache of decoded images would only keep their memory after
      // the request. One libvips thread per image leaves the other cores to pages and sign-ins.
      sharp.cache(false);
      sharp.concurrency(1);
      return sharp;
    },
    (error: unknown) => {
      // A failed load (a missing native library) is tried again by the next picture.
      loading = undefined;
      throw error;
    },
  ));
}
