import { afterAll, describe, expect, test } from "bun:test";
import { rootAnswerHeader, silentLogger } from "@linkgeo/shared";
import { pageQuestions } from "../src/proxy/page-questions.ts";
import { UpstreamPool } from "../src/upstreams/upstream-pool.ts";
import { startFakeUpstream, startRawUpstream } from "./support/fake-upstream.ts";

/**
 * What a page asks the shortener before it is served (proxy/page-questions.ts),
 * against real HTTP upstreams that answer as the shortener does, as a
 * shortener of the release before does, and as no shortener should: only
 * an answer that says what `/` is decides it; anything else is "could not
 * say", and the home page is served.
 */
describe("the questions a page asks the shortener", () => {
  const stoppers: Array<() => unknown> = [];
  afterAll(async () => {
    for (const stop of stoppers) await stop();
  });
  const questionsFor = async (origin: string, timeoutMs = 2_000) => {
    const shortener = new UpstreamPool({ name: "shortener", urls: [origin], refreshMs: 60_000, log: silentLogger });
    await shortener.start();
    return pageQuestions({ shortener, clientOf: () => ({ address: "127.0.0.1", viaTrustedProxy: false }), timeoutMs, fetch });
  };
  const upstream = (reply: (request: Request) => Response | Promise<Response>) => {
    const fake = startFakeUpstream(reply);
    stoppers.push(() => fake.stop());
    return fake;
  };
  const says = (answer: string, extra: Record<string, string> = {}) => ({ [rootAnswerHeader]: answer, ...extra });

  test("the root of a host: the shortener's redirect, home or none, asked with the host the person asked", async () => {
    const shortener = upstream((request) => {
      const host = request.headers.get("x-forwarded-host");
      if (host === "go.brand.test") return new Response(null, { status: 302, headers: says("redirect", { location: "https://brand.example/" }) });
      if (host === "bare.brand.test") return Response.json({ error: { code: "not_found", message: "no" } }, { status: 404, headers: says("none") });
      return new Response(null, { status: 204, headers: says("home") });
    });
    const questions = await questionsFor(shortener.origin);
    expect(await questions.rootOf("go.brand.test")).toEqual({ redirect: "https://brand.example/" });
    expect(await questions.rootOf("bare.brand.test")).toBe("none");
    expect(await questions.rootOf("sho.rt:8080")).toBe("home");
    expect(shortener.requests.map((request) => [request.method, request.path, request.headers["x-forwarded-host"]])).toEqual([
      ["GET", "/", "go.brand.test"],
      ["GET", "/", "bare.brand.test"],
      ["GET", "/", "sho.rt:8080"],
    ]);
  });

  test("an answer that does not say what / is says nothing: a plain 404, a redirect without the header, a bad Location, a 500", async () => {
    const answers = [
      () => Response.json({ error: { code: "not_found", message: "no such resource" } }, { status: 404 }),
      () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example/" } }),
      () => new Response(null, { status: 302, headers: says("redirect", { location: "not a url" }) }),
      () => new Response(null, { status: 200, headers: says("none") }),
      () => new Response("boom", { status: 500, headers: says("home") }),
    ];
    for (const reply of answers) {
      const questions = await questionsFor(upstream(reply).origin);
      expect(await questions.rootOf("go.brand.test")).toBeUndefined();
    }
  });

  test("a shortener that hangs, or closes the connection, could not say, within the deadline", async () => {
    const closing = startRawUpstream("");
    stoppers.push(() => closing.stop());
    expect(await (await questionsFor(closing.origin)).rootOf("go.brand.test")).toBeUndefined();
    // Never answered: without the deadline, these would wait past the test's own timeout.
    const silent = upstream(() => new Promise<Response>(() => {}));
    expect(await (await questionsFor(silent.origin, 200)).rootOf("go.brand.test")).toBeUndefined();
    expect(await (await questionsFor(silent.origin, 200)).linkIsKnown("abc1234", { host: "sho.rt" })).toBeUndefined();
  });

  test("a host's root is asked once for a second, for everyone asking at once; a could-not-say is asked again at once", async () => {
    let answering: "home" | "broken" = "home";
    const shortener = upstream(() =>
      answering === "home" ? new Response(null, { status: 204, headers: says("home") }) : new Response("boom", { status: 500 }),
    );
    let clock = 0;
    const pool = new UpstreamPool({ name: "shortener", urls: [shortener.origin], refreshMs: 60_000, log: silentLogger });
    await pool.start();
    const questions = pageQuestions({
      shortener: pool,
      clientOf: () => ({ address: "127.0.0.1", viaTrustedProxy: false }),
      timeoutMs: 2_000,
      fetch,
      now: () => clock,
    });
    expect(await Promise.all([1, 2, 3].map(() => questions.rootOf("sho.rt")))).toEqual(["home", "home", "home"]);
    clock = 999;
    expect(await questions.rootOf("sho.rt")).toBe("home");
    expect(shortener.requests).toHaveLength(1);
    await questions.rootOf("go.brand.test");
    expect(shortener.requests).toHaveLength(2);

    answering = "broken";
    clock = 1_000;
    expect(await questions.rootOf("sho.rt")).toBeUndefined();
    answering = "home";
    expect(await questions.rootOf("sho.rt")).toBe("home");
    expect(shortener.requests.map((request) => request.headers["x-forwarded-host"])).toEqual(["sho.rt", "go.brand.test", "sho.rt", "sho.rt"]);
  });

  test("whether a link exists: its stats on its domain, asked with the host", async () => {
    const shortener = upstream((request) => {
      const url = new URL(request.url);
      return url.pathname === "/shorten/abc1234/stats/" && url.searchParams.get("domain") === "go.brand.test"
        ? Response.json({ short_url: "abc1234", access_count: 0 })
        : Response.json({ error: { code: "not_found", message: "no" } }, { status: 404 });
    });
    const questions = await questionsFor(shortener.origin);
    expect(await questions.linkIsKnown("abc1234", { domain: "go.brand.test", host: "sho.rt" })).toBe(true);
    expect(await questions.linkIsKnown("abc1234", { host: "sho.rt" })).toBe(false);
    expect(shortener.requests.at(-1)?.headers["x-forwarded-host"]).toBe("sho.rt");
  });

  test("the host asked is the request's own, and a trusted proxy's X-Forwarded-Host only from one", async () => {
    const shortener = new UpstreamPool({ name: "shortener", urls: ["http://127.0.0.1:9"], refreshMs: 60_000, log: silentLogger });
    const request = new Request("http://sho.rt:8080/", { headers: { "x-forwarded-host": "go.brand.test" } });
    const asked = (viaTrustedProxy: boolean) =>
      pageQuestions({ shortener, clientOf: () => ({ address: "192.0.2.1", viaTrustedProxy }), timeoutMs: 100, fetch }).hostOf(request, null);
    expect([asked(false), asked(true)]).toEqual(["sho.rt:8080", "go.brand.test"]);
  });
});
