// After `npm install`: installs the linter's own tree (tools/lint), then says in one line which Node
// runs what, since npm may have run on an older Node than the site's (.npmrc explains the quiet).
import { execSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
execSync("npm install --prefix tools/lint --no-audit --no-fund", { cwd: root, stdio: "inherit" });
// npm runs this script with node_modules/.bin first on the PATH: this is the site's Node. npm's own
// is in its user agent ("npm/11.6.2 node/v20.19.0 linux x64 …").
const npmNode = /\bnode\/(v[\d.]+)/.exec(process.env.npm_config_user_agent ?? "")?.[1];
console.log(
  !npmNode || npmNode === process.version
    ? `Node.js ${process.version} runs npm and the site.`
    : `npm ran on Node.js ${npmNode}; the site and every npm script run on Node.js ${process.version}, installed in node_modules (README, "Node.js").`,
);
