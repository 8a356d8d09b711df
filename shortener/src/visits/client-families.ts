import { printableLabel } from "./printable-label.ts";

/** A browser or operating system the User-Agent does not let us name. */
export const otherFamily = "other";

const maxFamilyLength = 32;

// ua-parser-js names some browsers and systems with a constant and others
// with the word it matched, in whatever case the User-Agent wrote it
// ("FireFox/1" gives "FireFox"). So a name is looked up in lower case: the
// ones below get their usual spelling, any other is title-cased, and
// spellings of one name count as one.
const browserNames = new Map([
  ["mobile safari", "Safari"],
  ["ie", "Internet Explorer"],
  ["iemobile", "IE Mobile"],
  ["chrome webview", "Chrome WebView"],
  ["ucbrowser", "UC Browser"],
  ["gsa", "Google App"],
  ["duckduckgo", "DuckDuckGo"],
  ["wechat", "WeChat"],
  ["qqbrowser", "QQ Browser"],
  ["qqbrowserlite", "QQ Browser Lite"],
  ["miui browser", "MIUI Browser"],
  ["opera gx", "Opera GX"],
  ["tiktok", "TikTok"],
  ["kakaotalk", "KakaoTalk"],
  ["kakaostory", "KakaoStory"],
  ["linkedin", "LinkedIn"],
  ["line", "LINE"],
  ["webkit", "WebKit"],
  ["khtml", "KHTML"],
  ["seamonkey", "SeaMonkey"],
  ["palemoon", "Pale Moon"],
  ["librewolf", "LibreWolf"],
  ["netfront", "NetFront"],
  ["netsurf", "NetSurf"],
  ["heytap", "HeyTap"],
  ["omniweb", "OmniWeb"],
  ["phantomjs", "PhantomJS"],
  ["icab", "iCab"],
  ["icecat", "IceCat"],
]);

// Distributions are one family: the share of Linux matters, not of Fedora.
const linuxNames = [
  "linux",
  "ubuntu",
  "kubuntu",
  "xubuntu",
  "lubuntu",
  "debian",
  "suse",
  "opensuse",
  "gentoo",
  "arch",
  "slackware",
  "fedora",
  "mandriva",
  "centos",
  "pclinuxos",
  "red hat",
  "redhat",
  "zenwalk",
  "linpus",
  "raspbian",
  "deepin",
  "manjaro",
  "elementary os",
  "sabayon",
  "linspire",
  "mint",
  "mageia",
  "vectorlinux",
];

const osNames = new Map([
  ["mac os", "macOS"],
  // An iPad reports iOS when it reports itself at all (by default it sends
  // a Mac's User-Agent), so iPadOS would count only some iPads; the device
  // (tablet) tells them apart.
  ["ios", "iOS"],
  ["chromium os", "ChromeOS"],
  ["android-x86", "Android"],
  ["harmonyos", "HarmonyOS"],
  ["openharmony", "HarmonyOS"],
  ["webos", "webOS"],
  ["watchos", "watchOS"],
  ["kaios", "KaiOS"],
  ["blackberry", "BlackBerry"],
  ["rim tablet os", "BlackBerry"],
  ["playstation", "PlayStation"],
  ["windows iot", "Windows IoT"],
  ["freebsd", "FreeBSD"],
  ["openbsd", "OpenBSD"],
  ["netbsd", "NetBSD"],
  ...linuxNames.map((name): [string, string] => [name, "Linux"]),
]);

/** Systems whose devices ua-parser-js leaves without a type, as it does every desktop and laptop. */
export const desktopSystems: ReadonlySet<string> = new Set(["Windows", "macOS", "Linux", "ChromeOS", "FreeBSD", "OpenBSD", "NetBSD"]);

/** The browser family of a name ua-parser-js gave, or `other`. */
export function browserFamily(name: string | undefined): string {
  return family(name, browserNames);
}

/** The OS family of a name ua-parser-js gave, or `other`. */
export function osFamily(name: string | undefined): string {
  return family(name, osNames);
}

function family(name: string | undefined, spellings: ReadonlyMap<string, string>): string {
  const key = name?.trim().toLowerCase();
  if (!key) return otherFamily;
  const spelled = spellings.get(key) ?? key.replace(/(^|[\s-])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
  return printableLabel(spelled, maxFamilyLength) ?? otherFamily;
}
