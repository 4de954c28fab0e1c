import { describe, expect, it } from "vitest";
import { JOIN_LIMIT, SIGN_IN_LIMIT, WRITE_LIMIT } from "~/lib/limits";
import { INITIATE_DAILY_POSTS, INITIATE_DAILY_POSTS_MESSAGE } from "~/lib/privileges";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

// PRODUCT.md §7: every limit is checked and recorded in one atomic step (ADR 0013). Here 50
// requests reach the real server at the same moment; exactly the limit gets through.
const PARALLEL = 50;
const web = siteOverHttp();
const TOPIC = "/monastery/breath-and-stillness";

const from = (ip: string) => ({ "x-forwarded-for": ip });
const joinAs = (name: string, xp = 0) => joinOverHttp(web, name, { xp });
const statuses = (responses: Response[]) => responses.reduce<Record<string, number>>((all, r) => ({ ...all, [r.status]: (all[r.status] ?? 0) + 1 }), {});
const parallel = (make: (i: number) => Promise<Response>) => Promise.all(Array.from({ length: PARALLEL }, (_, i) => make(i)));

// Ten password checks and fifty requests take a while on a busy two-core machine.
describe(`limits over HTTP under ${PARALLEL} parallel requests on ${ENGINE}`, { timeout: 90_000 }, () => {
  it(`checks at most ${SIGN_IN_LIMIT} passwords of one address; the others get 429 and the wait`, async () => {
    const { email } = await joinAs("Sign In Target");
    const responses = await parallel((i) => web.http.post("/signin", { email, password: `Wrong${i}abc` }, from(`203.0.113.${i + 1}`)));
    expect(statuses(responses)).toEqual({ 400: SIGN_IN_LIMIT, 429: PARALLEL - SIGN_IN_LIMIT });
    const texts = await Promise.all(responses.map(readable));
    expect(texts.filter((t) => t.includes("Invalid email or password"))).toHaveLength(SIGN_IN_LIMIT);
    expect(texts.filter((t) => t.includes("Too many attempts. Try again in 15 minutes."))).toHaveLength(PARALLEL - SIGN_IN_LIMIT);
  });

  it(`lets ${JOIN_LIMIT} joins an hour through from one IP; the others see 429 and the wait in the form`, async () => {
    const responses = await parallel((i) =>
      web.http.post(
        "/join",
        { fullName: `Joiner ${i}`, email: `http-joiner${i}@example.org`, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" },
        from("198.18.0.1"),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: JOIN_LIMIT, 429: PARALLEL - JOIN_LIMIT });
    const refused = await readable(responses.find((r) => r.status === 429)!);
    expect(refused).toContain("Too many attempts. Try again in 60 minutes.");
    expect(refused).toContain("Create Your Account");
    expect(refused).toContain('value="Joiner'); // what was typed stays in the form
    const joined = await web.site.services.db.selectFrom("member").select("id").where("email", "like", "http-joiner%").execute();
    expect(joined).toHaveLength(JOIN_LIMIT);
  });

  it(`starts exactly ${INITIATE_DAILY_POSTS} of ${PARALLEL} parallel discussions from an initiate`, async () => {
    const initiate = await joinAs("Eager Initiate");
    const responses = await parallel((i) =>
      web.http.post(`${TOPIC}/new`, { title: `Eager discussion ${i}`, body: "x", submissionKey: crypto.randomUUID() }, { cookie: initiate.cookie }),
    );
    expect(statuses(responses)).toEqual({ 302: INITIATE_DAILY_POSTS, 429: PARALLEL - INITIATE_DAILY_POSTS });
    expect(await readable(responses.find((r) => r.status === 429)!)).toContain(INITIATE_DAILY_POSTS_MESSAGE);
    const rows = await web.site.services.db.selectFrom("discussion").select("id").where("author_id", "=", initiate.id).execute();
    expect(rows).toHaveLength(INITIATE_DAILY_POSTS);
  });

  it(`posts exactly ${WRITE_LIMIT.max} of ${PARALLEL} parallel replies (the write burst limit)`, async () => {
    const author = await joinAs("Thread Author", 100);
    const started = await web.http.post(
      `${TOPIC}/new`,
      { title: "A thread to fill", body: "x", submissionKey: crypto.randomUUID() },
      { cookie: author.cookie },
    );
    expect(started.status).toBe(302);
    const path = started.headers.get("location")!;
    const replier = await joinAs("Fast Replier", 100);
    const responses = await parallel(() =>
      web.http.post(path, { intent: "reply", body: "Once more.", submissionKey: crypto.randomUUID() }, { cookie: replier.cookie }),
    );
    expect(statuses(responses)).toEqual({ 302: WRITE_LIMIT.max, 429: PARALLEL - WRITE_LIMIT.max });
    const rows = await web.site.services.db.selectFrom("reply").select("id").where("author_id", "=", replier.id).execute();
    expect(rows).toHaveLength(WRITE_LIMIT.max);
  });
});
