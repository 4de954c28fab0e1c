import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The HTTP tests build the app once per run into a directory of their own (ADR 0055), so that
  // build/ stays the browser tests' and `npm start`'s.
  buildDirectory: process.env.IPOS_BUILD_DIRECTORY ?? "build",
} satisfies Config;
