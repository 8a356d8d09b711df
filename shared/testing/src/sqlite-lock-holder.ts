/**
 * Another process that makes the SQLite file at `path` and holds its
 * exclusive lock for `ms`, the file still in its first (rollback) journal
 * mode: what a replica starting beside another on one fresh file meets
 * while that one makes its tables. Resolves once the lock is held; its
 * dispose waits for the process to end.
 */
export async function holdSqliteLock(path: string, ms: number): Promise<AsyncDisposable> {
  const holder = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(path)}); db.exec("BEGIN EXCLUSIVE"); db.exec("CREATE TABLE made_by_the_other (x)"); console.log("held"); await Bun.sleep(${ms}); db.exec("COMMIT");`,
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  const first = await holder.stdout.getReader().read();
  if (!new TextDecoder().decode(first.value).startsWith("held")) throw new Error("test kit: the SQLite lock holder did not take the lock");
  return {
    [Symbol.asyncDispose]: async () => {
      await holder.exited;
    },
  };
}
