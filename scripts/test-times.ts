/**
 * The slowest test files of a run, from the JUnit file `bun test
 * --reporter=junit --reporter-outfile=<file>` writes (.ci/run does), so a
 * slow file shows up in every CI log instead of hiding in the total.
 *
 *   bun run scripts/test-times.ts test-results/junit.xml [count]
 */

export interface FileTime {
  file: string;
  tests: number;
  seconds: number;
}

/** Each test file's own suite (the outermost ones): its path, tests and seconds. */
export function fileTimes(junitXml: string): FileTime[] {
  const times: FileTime[] = [];
  // The files' suites are the direct children of <testsuites>, indented by two spaces; nested describe blocks by more.
  for (const match of junitXml.matchAll(/^ {2}<testsuite ([^>]*)>/gm)) {
    const attributes = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const seconds = Number(attributes.time);
    if (attributes.file && Number.isFinite(seconds)) times.push({ file: attributes.file, tests: Number(attributes.tests) || 0, seconds });
  }
  return times.sort((a, b) => b.seconds - a.seconds);
}

export function slowestReport(times: readonly FileTime[], count: number): string {
  const total = times.reduce((sum, time) => sum + time.seconds, 0);
  const lines = times.slice(0, count).map((time) => `${time.seconds.toFixed(1).padStart(7)} s  ${String(time.tests).padStart(4)} tests  ${time.file}`);
  return [`the ${Math.min(count, times.length)} slowest of ${times.length} test files (${total.toFixed(0)} s in all):`, ...lines].join("\n");
}

if (import.meta.main) {
  const [path, count = "15"] = Bun.argv.slice(2);
  if (!path) {
    console.error("usage: bun run scripts/test-times.ts <junit.xml> [count]");
    process.exit(2);
  }
  console.log(slowestReport(fileTimes(await Bun.file(path).text()), Number(count) || 15));
}
