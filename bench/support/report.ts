import { availableParallelism, loadavg } from "node:os";

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
export const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");
export const fmtMs = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

/** A plain-text table: the first row is the header, the first column left-aligned, the others right-aligned. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("   ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("   "), ...rows.slice(1).map(line)].join("\n");
}

/** How busy the machine already is: other work competes with wrk and the servers, and makes the numbers noisy. */
export function describeMachine(): string {
  return `${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(2)} over the last minute`;
}
