import { describe, expect, test } from "bun:test";
import { busyCoreSeconds, ticksPerSecond } from "../support/machine-cpu.ts";

describe("the machine's busy core-seconds (bench/support/machine-cpu.ts)", () => {
  test("sums user, nice, system, irq and softirq of /proc/stat's first line, not idle, iowait or steal", () => {
    const stat = "cpu  1000 50 300 90000 700 20 30 400 0 0\ncpu0 500 25 150 45000 350 10 15 200 0 0\n";
    expect(busyCoreSeconds(stat)).toBe((1000 + 50 + 300 + 20 + 30) / ticksPerSecond);
  });

  test("refuses a text that is not /proc/stat's", () => {
    expect(() => busyCoreSeconds("intr 1 2 3\n")).toThrow("not /proc/stat's first line");
  });

  test("reads the machine's own, and never goes back", () => {
    const before = busyCoreSeconds();
    expect(busyCoreSeconds()).toBeGreaterThanOrEqual(before);
    expect(before).toBeGreaterThan(0);
  });
});
