import { beforeAll, describe, expect, test } from "bun:test";
import { present, type AnswerSource } from "../../src/present.ts";
import { buildWebAssets, type WebAssets } from "../../src/web-assets.ts";

const asPerson = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
const asProgram = { accept: "application/json" };
const navigation = (headers: Record<string, string>) => new Request("http://gateway/Abc123", { headers });

const json = (status: number, headers: Record<string, string> = {}) =>
  Response.json({ error: { code: "x", message: "y" } }, { status, headers: { "x-request-id": "rid-1", ...headers } });
const visitorPage = (status: number, name: string) =>
  new Response("<html>the shortener's page</html>", { status, headers: { "content-type": "text/html; charset=utf-8", "link-page": name } });

const heading = async (response: Response) => /<h1[^>]*>([^<]*)<\/h1>/.exec(await response.text())?.[1];

const fromGateway: AnswerSource = { from: "gateway", upstream: "shortener", limit: "redirect" };
const followedLink: AnswerSource = { from: "upstream", upstream: "shortener", limit: "redirect" };
const apiAnswer: AnswerSource = { from: "upstream", upstream: "shortener", limit: "api" };

describe("present: the answer a person gets", () => {
  let assets: WebAssets;
  beforeAll(async () => {
    assets = await buildWebAssets();
  });

  test("the gateway's own error is a page for a browser's navigation, with its status, Retry-After and request id; a program keeps the JSON", async () => {
    const page = present(assets, navigation(asPerson), json(429, { "retry-after": "30" }), fromGateway);
    expect([page.status, page.headers.get("retry-after"), page.headers.get("x-request-id")]).toEqual([429, "30", "rid-1"]);
    expect(await heading(page)).toBe("Too many requests");
    const kept = json(429);
    expect(present(assets, navigation(asProgram), kept, fromGateway)).toBe(kept);
  });

  test("a service's answer to an API call passes as it is, even to a browser and even an error the gateway has a page for", () => {
    for (const status of [404, 429, 503]) {
      const answer = json(status);
      expect(present(assets, navigation(asPerson), answer, apiAnswer)).toBe(answer);
    }
  });

  test("a followed link's visitor page is the web app's own, without the link-page header; its 503 is the outage page for a person only", async () => {
    const gone = present(assets, navigation(asPerson), visitorPage(410, "gone"), followedLink);
    expect([gone.status, gone.headers.get("link-page"), await heading(gone)]).toEqual([410, null, "This link is no longer available"]);

    const down = present(assets, navigation(asPerson), json(503), followedLink);
    expect([down.status, down.headers.get("retry-after"), await heading(down)]).toEqual([503, "5", "This service is not available right now"]);
    const forProgram = json(503, { "link-page": "gone" });
    expect(present(assets, navigation(asProgram), forProgram, followedLink)).toBe(forProgram);
    expect(forProgram.headers.get("link-page")).toBeNull();
  });

  test("a page whose name and status disagree passes as it is, its link-page header dropped", async () => {
    const odd = visitorPage(200, "gone");
    const passed = present(assets, navigation(asPerson), odd, followedLink);
    expect(passed).toBe(odd);
    expect([passed.status, passed.headers.get("link-page"), await passed.text()]).toEqual([200, null, "<html>the shortener's page</html>"]);
  });
});
