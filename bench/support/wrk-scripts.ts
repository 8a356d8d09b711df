/**
 * The Lua scripts wrk draws bench:scale's and bench:wal's links with: codes
 * uniform over the links, or by Zipf's law, as the loaders of
 * scale-data.ts numbered them (every even link on brand.bench).
 */
import { brandHost } from "./scale-data.ts";

/**
 * Seeds each wrk run's draws from its start time and each thread's
 * number: a seed written into the script once sent every round to the same
 * codes in the same order, so a second round found the first round's rows
 * already there.
 */
const seedPerRun = `local threads = 0
function setup(thread) threads = threads + 1; thread:set("thread_number", threads) end
function init(args) math.randomseed(os.time() * 100 + (thread_number or 0)) end`;

/**
 * The request for link `n` in Lua: every even link is on brand.bench
 * (scale-data.ts), asked with that Host; the others on the default domain.
 */
const linkRequest = `local brand = { Host = "${brandHost}" }
local function link(n) return wrk.format("GET", string.format("/c%xx/", n), n % 2 == 0 and brand or nil) end`;

/** Which links a script draws: every one (both domains), the default domain's (odd) or brand.bench's (even). */
export type Draw = "every" | "default" | "brand";

/** A wrk script drawing codes uniformly from the links `draw` names. */
export function uniformScript(links: number, draw: Draw = "every"): string {
  const pick = {
    every: `math.random(1, ${links})`,
    default: `2 * math.random(1, ${Math.ceil(links / 2)}) - 1`,
    brand: `2 * math.random(1, ${Math.floor(links / 2)})`,
  }[draw];
  return `${seedPerRun}\n${linkRequest}\nrequest = function() return link(${pick}) end\n`;
}

/**
 * A wrk script drawing codes by Zipf's law (exponent `s`): rank k has weight
 * k^-s, drawn by a binary search of the cumulative weights (built once per
 * wrk thread). Ranks are spread over every link by a stride prime to their
 * number, so the busiest are not all the newest.
 */
/** The long tail the benches draw by Zipf's law: s = 1.1, a common fit of web traffic. */
export const zipfExponent = 1.1;

export function zipfScript(links: number, exponent: number, draw: Exclude<Draw, "brand"> = "every"): string {
  const stride = [1_000_003, 999_983, 7_919].find((prime) => links % prime !== 0)!;
  return `${seedPerRun}
${linkRequest}
local n = ${links}
local cdf = {}
local total = 0
for k = 1, n do total = total + k ^ (-${exponent}); cdf[k] = total end
request = function()
  local u = math.random() * total
  local lo, hi = 1, n
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cdf[mid] < u then lo = mid + 1 else hi = mid end
  end
  local k = ((lo - 1) * ${stride}) % n + 1
  ${draw === "default" ? "k = k - (1 - k % 2) -- an even rank's link is brand.bench's: its odd neighbour instead" : ""}
  return link(k)
end
`;
}
