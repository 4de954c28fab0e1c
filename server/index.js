// The process entry. In production it loads the server bundle that `npm run build` made from
// server/app.ts; in development (NODE_ENV=development) it loads the same file through Vite.
const development = process.env.NODE_ENV === "development";
// React and the libraries below pick their production builds from this; unset means production.
process.env.NODE_ENV ??= "production";

try {
  if (development) {
    const { createServer } = await import("vite");
    const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
    const { start } = await vite.ssrLoadModule("./server/app.ts");
    await start({ vite });
  } else {
    const { start } = await import("../build/server/index.js");
    await start();
  }
} catch (error) {
  // A bad configuration or an unreachable database is a message for a person, not a stack trace.
  if (
    error?.name === "EnvError" ||
    error?.name === "DatabaseUnreachableError" ||
    (error instanceof Error && error.message.startsWith("Invalid configuration"))
  ) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
}
