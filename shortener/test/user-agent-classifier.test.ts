import { describe, expect, test } from "bun:test";
import { parseUserAgent, type UserAgentFacts } from "../src/visits/parse-user-agent.ts";
import { UserAgentClassifier } from "../src/visits/user-agent-classifier.ts";

const person = (browser: string, os: string, device: UserAgentFacts["device"]): UserAgentFacts => ({ bot: false, browser, os, device });
const bot = (browser: string): UserAgentFacts => ({ bot: true, browser, os: "other", device: "bot" });

const chromeOnWindows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

// Real User-Agents, as the browsers and bots send them.
const userAgents: Array<[string, string, UserAgentFacts]> = [
  ["Chrome on Windows", chromeOnWindows, person("Chrome", "Windows", "desktop")],
  ["Firefox on Linux", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", person("Firefox", "Linux", "desktop")],
  [
    "Firefox on Ubuntu (a distribution counts as Linux)",
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    person("Firefox", "Linux", "desktop"),
  ],
  [
    "Safari on macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    person("Safari", "macOS", "desktop"),
  ],
  ["Edge on Windows", `${chromeOnWindows} Edg/131.0.0.0`, person("Edge", "Windows", "desktop")],
  [
    "Opera on Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
    person("Opera", "Windows", "desktop"),
  ],
  [
    "Chrome on a Chromebook",
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    person("Chrome", "ChromeOS", "desktop"),
  ],
  [
    "Safari on an iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    person("Safari", "iOS", "mobile"),
  ],
  [
    "Chrome on an iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
    person("Chrome", "iOS", "mobile"),
  ],
  [
    "Chrome on an Android phone",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    person("Chrome", "Android", "mobile"),
  ],
  [
    "Samsung Internet on a Galaxy S23",
    "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
    person("Samsung Internet", "Android", "mobile"),
  ],
  ["Firefox on an Android phone", "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0", person("Firefox", "Android", "mobile")],
  [
    "Safari on an iPad that says so",
    "Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
    person("Safari", "iOS", "tablet"),
  ],
  [
    "Chrome on a Galaxy Tab A9",
    "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    person("Chrome", "Android", "tablet"),
  ],
  [
    "Instagram's in-app browser",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 334.0.4.32.98 (iPhone14,5; iOS 17_5; en_US; en; scale=3.00; 1170x2532; 606364138)",
    person("Instagram", "iOS", "mobile"),
  ],
  [
    "Facebook's in-app browser",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/469.0.0.40.108;FBBV/617587232;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]",
    person("Facebook", "iOS", "mobile"),
  ],
  [
    "Edge on an Xbox (a console is other)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edge/44.18363.8131",
    person("Edge", "Xbox", "other"),
  ],
  [
    "a browser name in capitals (one family whatever its case)",
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 FIREFOX/133.0",
    person("Firefox", "Linux", "desktop"),
  ],
  ["curl", "curl/8.5.0", bot("curl")],
  ["python-requests", "python-requests/2.32.3", bot("python-requests")],
  ["Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", bot("Googlebot")],
  [
    "Googlebot Smartphone (its Android is not counted)",
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    bot("Googlebot"),
  ],
  ["Bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", bot("Bingbot")],
  ["Slack's link preview", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", bot("Slackbot")],
  ["Facebook's link preview", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", bot("facebookexternalhit")],
  ["X's link preview", "Twitterbot/1.0", bot("Twitterbot")],
  ["WhatsApp's link preview", "WhatsApp/2.23.20.0", bot("WhatsApp")],
  ["Discord's link preview", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", bot("Discordbot")],
  ["Telegram's link preview (which says it is like TwitterBot)", "TelegramBot (like TwitterBot)", bot("TelegramBot")],
  [
    "LinkedIn's link preview (which names Apache-HttpClient)",
    "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
    bot("LinkedInBot"),
  ],
  [
    "headless Chrome (a bot without a name of its own)",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
    bot("Chrome Headless"),
  ],
  ["garbage with control characters", "\u0001\u0002 zz%%% ;;; ()", bot("other")],
  ["one word", "asdf", bot("other")],
  ["something shaped like a browser that names none", "Mozilla/5.0 (qwerty; zzz) Foo/1.0 Bar", person("other", "other", "other")],
];

describe("parseUserAgent", () => {
  test.each(userAgents)("%s", (_, userAgent, facts) => {
    expect(parseUserAgent(userAgent)).toEqual(facts);
  });
});

describe("UserAgentClassifier", () => {
  test.each([
    ["absent", null],
    ["empty", ""],
    ["blank", "   "],
  ])("an %s User-Agent is a bot of no family, and is not parsed", (_, userAgent) => {
    const parsed: string[] = [];
    const classifier = new UserAgentClassifier({
      parse: (ua) => {
        parsed.push(ua);
        return parseUserAgent(ua);
      },
    });
    expect(classifier.classify(userAgent)).toEqual({ bot: true, browser: "other", os: "other", device: "bot" });
    expect(parsed).toEqual([]);
  });

  test("reads only the first 512 characters of a 64 KiB User-Agent", () => {
    const parsed: string[] = [];
    const classifier = new UserAgentClassifier({
      parse: (ua) => {
        parsed.push(ua);
        return parseUserAgent(ua);
      },
    });
    const huge = `${chromeOnWindows} ${"A".repeat(64 * 1024)}`;
    expect(classifier.classify(huge)).toEqual(person("Chrome", "Windows", "desktop"));
    expect(classifier.classify(`${huge}B`)).toEqual(person("Chrome", "Windows", "desktop"));
    expect(parsed).toEqual([huge.slice(0, 512)]);
  });

  test("parses each distinct User-Agent once and answers the same from its cache", () => {
    const parsed: string[] = [];
    const classifier = new UserAgentClassifier({
      parse: (ua) => {
        parsed.push(ua);
        return parseUserAgent(ua);
      },
    });
    const answers = ["a/1", "b/1", "a/1", "a/1", chromeOnWindows, "b/1", chromeOnWindows].map((ua) => classifier.classify(ua));
    expect(parsed).toEqual(["a/1", "b/1", chromeOnWindows]);
    expect(answers[2]).toEqual(answers[0]!);
    expect(answers[6]).toEqual(person("Chrome", "Windows", "desktop"));
    expect(classifier.cachedCount).toBe(3);
  });

  test("keeps at most cacheSize User-Agents, forgetting the least recently seen, and parses a forgotten one again alike", () => {
    const parsed: string[] = [];
    const classifier = new UserAgentClassifier({
      cacheSize: 2,
      parse: (ua) => {
        parsed.push(ua);
        return parseUserAgent(ua);
      },
    });
    classifier.classify("Twitterbot/1.0");
    const chrome = classifier.classify(chromeOnWindows);
    classifier.classify("Twitterbot/1.0"); // now Chrome is the least recently seen
    classifier.classify("curl/8.5.0"); // forgets Chrome
    expect(classifier.cachedCount).toBe(2);
    expect(classifier.classify("Twitterbot/1.0")).toEqual(bot("Twitterbot"));
    expect(classifier.classify(chromeOnWindows)).toEqual(chrome);
    expect(parsed).toEqual(["Twitterbot/1.0", chromeOnWindows, "curl/8.5.0", chromeOnWindows]);
  });

  test("answers frozen facts, so no caller can change what the next request with that User-Agent gets", () => {
    const classifier = new UserAgentClassifier();
    const facts = classifier.classify(chromeOnWindows);
    expect(() => Object.assign(facts, { bot: true })).toThrow();
    expect(classifier.classify(chromeOnWindows)).toEqual(person("Chrome", "Windows", "desktop"));
  });
});
