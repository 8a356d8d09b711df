import { existsSync } from "node:fs";

/**
 * `bun test` must pass by itself on a fresh machine of ours, which has the
 * databases but not every program the suites drive (Chromium, Prometheus):
 * the first test that needs one installs its Debian package (.ci/run does
 * too, ahead of time). A failed install fails the test; it is never a
 * reason to skip it.
 */
export function installDebianPackageIfMissing(binary: string, debianPackage: string): void {
  if (existsSync(binary)) return;
  installDebianPackage(debianPackage);
  if (!existsSync(binary)) throw new Error(`Debian's ${debianPackage} is installed, but ${binary} is not there`);
}

/**
 * `apt-get install` of one package (root only); throws with apt-get's last
 * words when it fails. Test files run side by side may install at once, so
 * each waits for the other's lock rather than failing on it.
 */
export function installDebianPackage(debianPackage: string): void {
  const waitForLock = "-o DPkg::Lock::Timeout=300";
  const install = Bun.spawnSync(["sh", "-c", `apt-get update -qq ${waitForLock} && apt-get install -y -qq ${waitForLock} ${debianPackage}`], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (!install.success) {
    throw new Error(`could not install Debian's ${debianPackage} (apt-get exited ${install.exitCode}):\n${install.stderr.toString().slice(-2000)}`);
  }
}
