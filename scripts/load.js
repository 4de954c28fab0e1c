// Load test of a running site (default http://localhost:3000): each seed page for 10 s with 20
// connections, printed as requests per second and latency percentiles. Loopback only.
//   npm start &   then   npm run bench:load   (or BASE=http://127.0.0.1:3210 npm run bench:load)
import autocannon from "autocannon";

const base = process.env.BASE ?? "http://127.0.0.1:3000";
if (!/^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(base)) {
  console.error("BASE must be a loopback address.");
  process.exit(2);
}
const pages = (process.env.PAGES ?? "/,/monastery,/battlefield,/forge,/council,/join,/signin").split(",");
const duration = Number(process.env.DURATION ?? 10);

console.log(`page                 req/s    p50 ms   p99 ms   errors`);
for (const page of pages) {
  const result = await autocannon({ url: base + page, connections: 20, duration });
  console.log(
    `${page.padEnd(18)} ${String(Math.round(result.requests.average)).padStart(7)} ${String(result.latency.p50).padStart(9)} ${String(result.latency.p99).padStart(8)} ${String(result.errors + result.non2xx).padStart(8)}`,
  );
}
