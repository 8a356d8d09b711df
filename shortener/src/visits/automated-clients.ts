// Crawlers, link previews and HTTP tools that fetch short links, by a word
// of their User-Agent (in lower case) and the name they are counted under.
// isbot decides what is a bot; this list only names the known ones, so that
// "which bots" stays a short list of names, not one per User-Agent a script
// can make up. The first match wins: TelegramBot says "like TwitterBot", and
// LinkedInBot names Apache-HttpClient.
const knownClients: ReadonlyArray<readonly [word: string, name: string]> = [
  // search engines
  ["googlebot", "Googlebot"],
  ["google-inspectiontool", "Google-InspectionTool"],
  ["adsbot-google", "AdsBot-Google"],
  ["bingbot", "Bingbot"],
  ["applebot", "Applebot"],
  ["duckduckbot", "DuckDuckBot"],
  ["yandexbot", "YandexBot"],
  ["baiduspider", "Baiduspider"],
  ["petalbot", "PetalBot"],
  // link previews in chat and social apps
  ["telegrambot", "TelegramBot"],
  ["slackbot", "Slackbot"],
  ["facebookexternalhit", "facebookexternalhit"],
  ["facebookcatalog", "facebookcatalog"],
  ["meta-externalagent", "meta-externalagent"],
  ["twitterbot", "Twitterbot"],
  ["whatsapp", "WhatsApp"],
  ["discordbot", "Discordbot"],
  ["linkedinbot", "LinkedInBot"],
  ["skypeuripreview", "SkypeUriPreview"],
  ["pinterestbot", "Pinterestbot"],
  ["redditbot", "redditbot"],
  ["mastodon", "Mastodon"],
  ["cardyb", "Bluesky"],
  ["iframely", "Iframely"],
  ["embedly", "Embedly"],
  // AI crawlers and assistants
  ["gptbot", "GPTBot"],
  ["chatgpt-user", "ChatGPT-User"],
  ["oai-searchbot", "OAI-SearchBot"],
  ["claudebot", "ClaudeBot"],
  ["claude-user", "Claude-User"],
  ["perplexitybot", "PerplexityBot"],
  ["ccbot", "CCBot"],
  ["bytespider", "Bytespider"],
  ["amazonbot", "Amazonbot"],
  // SEO crawlers
  ["ahrefsbot", "AhrefsBot"],
  ["semrushbot", "SemrushBot"],
  ["mj12bot", "MJ12bot"],
  ["dotbot", "DotBot"],
  // HTTP tools and libraries
  ["curl/", "curl"],
  ["wget/", "Wget"],
  ["python-requests", "python-requests"],
  ["python-urllib", "Python-urllib"],
  ["python-httpx", "python-httpx"],
  ["aiohttp", "aiohttp"],
  ["go-http-client", "Go-http-client"],
  ["okhttp", "okhttp"],
  ["node-fetch", "node-fetch"],
  ["undici", "undici"],
  ["axios", "axios"],
  ["apache-httpclient", "Apache-HttpClient"],
  ["java/", "Java"],
  ["libwww-perl", "libwww-perl"],
  ["postmanruntime", "PostmanRuntime"],
  ["bun/", "Bun"],
  ["deno/", "Deno"],
];

/** The name a known crawler, link preview or HTTP tool is counted under, or undefined. */
export function automatedClientName(userAgent: string): string | undefined {
  const lower = userAgent.toLowerCase();
  return knownClients.find(([word]) => lower.includes(word))?.[1];
}
