import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");

test("what a redis-server saves in the folder it was started in stays out of git", () => {
  // RDB snapshots (dump.rdb, and temp-<pid>.rdb while one is written), the append-only file of Redis before 7 and its folder since.
  const saved = [
    "dump.rdb",
    "shortener/dump.rdb",
    "temp-4242.rdb",
    "appendonly.aof",
    "appendonlydir/appendonly.aof.1.base.rdb",
    "appendonlydir/appendonly.aof.1.incr.aof",
    "appendonlydir/appendonly.aof.manifest",
  ];
  const checked = Bun.spawnSync(["git", "check-ignore", "--no-index", ...saved], { cwd: root });
  expect(checked.stdout.toString().trim().split("\n")).toEqual(saved);
});
