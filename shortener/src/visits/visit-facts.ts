/** What one counted redirect tells about its visitor: families and hosts only, never an address or a full User-Agent. */
export interface VisitFacts {
  bot: boolean;
  referrer: string;
  country: string;
  browser: string;
  os: string;
  device: "desktop" | "mobile" | "tablet" | "bot" | "other";
}
