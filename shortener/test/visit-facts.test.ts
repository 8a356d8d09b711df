import { describe, expect, test } from "bun:test";
import { loadIpCountries } from "../src/visits/load-ip-countries.ts";
import { VisitClassifier, type VisitInput } from "../src/visits/visit-classifier.ts";
import type { VisitFacts } from "../src/visits/visit-facts.ts";

const iphoneSafari = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const firefoxOnLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

describe("VisitClassifier", () => {
  const { countries } = loadIpCountries();
  const classifier = new VisitClassifier({ countries });

  test.each<[string, VisitInput, VisitFacts]>([
    [
      "a person in Cambridge on an iPhone, from Hacker News",
      { clientAddress: "131.111.8.46", userAgent: iphoneSafari, referer: "https://news.ycombinator.com/item?id=1" },
      { bot: false, referrer: "news.ycombinator.com", country: "GB", browser: "Safari", os: "iOS", device: "mobile" },
    ],
    [
      "a person at a German university over IPv6, typing the link",
      { clientAddress: "2001:638:700::1", userAgent: firefoxOnLinux, referer: null },
      { bot: false, referrer: "direct", country: "DE", browser: "Firefox", os: "Linux", device: "desktop" },
    ],
    [
      "Slack unfurling the link",
      { clientAddress: "128.32.1.1", userAgent: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", referer: null },
      { bot: true, referrer: "direct", country: "US", browser: "Slackbot", os: "other", device: "bot" },
    ],
    [
      "curl on the same machine",
      { clientAddress: "127.0.0.1", userAgent: "curl/8.5.0", referer: "" },
      { bot: true, referrer: "direct", country: "unknown", browser: "curl", os: "other", device: "bot" },
    ],
    [
      "a request with nothing to go on",
      { clientAddress: "unknown", userAgent: null, referer: "android-app://com.google.android.gm/" },
      { bot: true, referrer: "unknown", country: "unknown", browser: "other", os: "other", device: "bot" },
    ],
  ])("%s", (_, input, facts) => {
    expect(classifier.classify(input)).toEqual(facts);
  });

  test("answers the same for the same visit, as a new object each time", () => {
    const input = { clientAddress: "2001:630:212::1", userAgent: iphoneSafari, referer: "https://t.co/x" };
    const first = classifier.classify(input);
    const second = classifier.classify(input);
    expect(second).toEqual({ bot: false, referrer: "t.co", country: "GB", browser: "Safari", os: "iOS", device: "mobile" });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  test("passes the cache size on: a cache with no room is refused", () => {
    expect(() => new VisitClassifier({ countries, uaCacheSize: 0 })).toThrow("at least one entry");
  });

  // Whatever the headers hold, every value is short printable ASCII: each
  // becomes a database key and an API value.
  test("turns hostile headers into short printable values", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const junk = (length: number) => String.fromCharCode(...Array.from({ length }, () => Math.floor(random() * 0x3000)));
    const inputs: VisitInput[] = [
      { clientAddress: junk(40), userAgent: `${iphoneSafari}${junk(64 * 1024)}`, referer: `https://example.com/${junk(64 * 1024)}` },
      { clientAddress: "1.2.3.4\n", userAgent: "Mozilla/5.0 (Windows NT 10.0)\u0007\u001b[31m", referer: "https://exa\u0000mple.com/" },
      ...Array.from({ length: 200 }, () => ({ clientAddress: junk(20), userAgent: junk(Math.floor(random() * 600)), referer: `http://${junk(30)}/` })),
    ];
    for (const input of inputs) {
      const facts = classifier.classify(input);
      for (const value of [facts.referrer, facts.country, facts.browser, facts.os]) expect(value).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]{0,251}[\x21-\x7e])?$/);
      expect(["desktop", "mobile", "tablet", "bot", "other"]).toContain(facts.device);
      expect(typeof facts.bot).toBe("boolean");
    }
  });
});
