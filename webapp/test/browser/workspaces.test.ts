import { beforeAll, describe, expect, test } from "bun:test";
import { browserSetupTimeoutMs, browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { stackAdmin } from "../support/web-stack.ts";

/** A flow that checks states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

/** A username of this run only: the shared stack keeps the people other files (and runs of this one) made. */
const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;
const password = "a long passphrase";

describe("the workspaces page and an invite's page in a real browser", () => {
  const web = useSharedWebStack();
  const owner = unique("ana");
  const newcomer = unique("ben");
  let adminToken: string;
  /** The owner's page, signed in for the whole flow. */
  let page: Page;
  let problems: string[];
  /** The workspace the owner makes, by its id in the page's address. */
  let workspaceId: string;
  /** The invite link the owner's page showed once. */
  let inviteLink: string;

  const api = async (method: string, path: string, body?: unknown, token = adminToken) => {
    const answer = await fetch(`${web.stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json().catch(() => null)) as Record<string, unknown> };
  };
  const section = (name: string) => page.getByRole("region", { name, exact: true });
  /** On the page, and hidden: a control a role is not offered (not merely one that does not exist). */
  const hiddenOne = async (locator: ReturnType<Page["locator"]>) => [await locator.count(), await locator.isHidden()];
  /** A button by its name, found hidden too (a role query leaves hidden elements out). */
  const anyButton = (within: Page | ReturnType<Page["locator"]>, name: string) => within.getByRole("button", { name, includeHidden: true });

  beforeAll(async () => {
    adminToken = (await api("POST", "/admin/login", stackAdmin, "")).body.token as string;
    expect((await api("POST", "/admin/users", { username: owner, password })).status).toBe(201);
    ({ page, problems } = await web.browser.open(`${web.stack.url}/app/workspaces`));
  }, browserSetupTimeoutMs);

  test(
    "signed out, the sign-in form; a wrong password is refused in place; signed in, a person in no workspace is asked to make one",
    async () => {
      await page.getByRole("heading", { name: "Workspaces", level: 1 }).waitFor();
      await page.getByLabel("Username").fill(owner.toUpperCase());
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "Wrong username or password." }).waitFor();

      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText(`Signed in as ${owner}`).waitFor();
      await page.getByText("You are in no workspace yet.").waitFor();
      expect(await hiddenOne(page.locator("#workspace-choice"))).toEqual([1, true]);
      await checkPageState(page, "workspaces-none");
    },
    flowTimeoutMs,
  );

  test(
    "a new workspace is chosen at once, its owner's; a link typed without https:// is made in it, listed, and leads to its page",
    async () => {
      const form = page.getByRole("form", { name: "New workspace" });
      await form.getByRole("button", { name: "Create workspace" }).click();
      await page.getByText("Enter a name for the workspace.").waitFor();
      await form.getByLabel("Name").fill("Launch");
      await form.getByRole("button", { name: "Create workspace" }).click();
      await page.getByLabel("Workspace", { exact: true }).waitFor();
      expect(await page.getByLabel("Workspace", { exact: true }).locator("option:checked").innerText()).toBe("Launch");
      expect(await page.locator("#workspace-role").innerText()).toBe("Your role here: owner");
      workspaceId = new URL(page.url()).searchParams.get("workspace")!;
      expect(workspaceId).toMatch(/^\d+$/);
      await section("Links").getByText("No links yet.").waitFor();

      const links = section("Links");
      await links.getByLabel("Long URL").fill("example.com/launch");
      await links.getByLabel("Alias (optional)").fill(unique("launch"));
      const alias = await links.getByLabel("Alias (optional)").inputValue();
      await links.getByRole("button", { name: "Shorten" }).click();
      await links
        .getByRole("status")
        .filter({ hasText: `/${alias}/ made.` })
        .waitFor();
      const row = links.getByRole("row", { name: new RegExp(alias) });
      expect((await row.getByRole("cell").nth(1).innerText()).replace(/\s+/g, "")).toBe("example.com/launch");
      // The API agrees: the link is the workspace's, and its destination got https://.
      const record = await api("GET", `/shorten/${alias}/`);
      expect([record.body.workspace, record.body.long_url]).toEqual([Number(workspaceId), "https://example.com/launch"]);
      expect(await row.getByRole("link", { name: alias }).getAttribute("href")).toStartWith(`/app/links/${alias}?domain=`);
      expect(await links.getByRole("link", { name: "Download the workspace's links (CSV)" }).getAttribute("href")).toBe(
        `/admin/export/links?workspace=${workspaceId}&format=csv`,
      );
      await checkPageState(page, "workspaces-links");
      // The row leads to the link's own page, where a member reads its report; Back comes to the same workspace.
      await row.getByRole("link", { name: alias }).click();
      await page.getByRole("heading", { level: 1, name: new RegExp(alias) }).waitFor();
      await page.getByText(`You are signed in as ${owner}, a member of the link's workspace.`).waitFor();
      await page.getByRole("heading", { name: "Visits" }).first().waitFor();
      await page.goBack();
      await section("Links")
        .getByRole("row", { name: new RegExp(alias) })
        .waitFor();
      expect(new URL(page.url()).searchParams.get("workspace")).toBe(workspaceId);
    },
    flowTimeoutMs,
  );

  test(
    "an owner's invite link is shown once; a newcomer opens it, makes an account, joins and lands in the workspace as its editor",
    async () => {
      const members = section("Members");
      expect(await members.getByRole("row").filter({ hasText: owner }).innerText()).toContain("(you)");
      await members.getByLabel("Role", { exact: true }).selectOption("editor");
      await members.getByRole("button", { name: "Make an invite link" }).click();
      const shown = page.getByRole("group", { name: "Copy the invite link now: you will not see it again" });
      await shown.waitFor();
      inviteLink = await shown.getByLabel("Invite link", { exact: true }).inputValue();
      expect(inviteLink).toMatch(new RegExp(`^${web.stack.url}/app/invite#lgi_[A-Za-z0-9_-]{43}$`));
      await checkPageState(page, "workspaces-invite");
      await shown.getByRole("button", { name: "I have copied it" }).click();
      expect(await shown.isHidden()).toBe(true);
      expect(await page.getByLabel("Invite link", { exact: true }).inputValue()).toBe("");

      const { page: theirs, context, problems: theirProblems } = await web.browser.open(inviteLink, "phone");
      try {
        await theirs.getByRole("heading", { name: "New here? Make your account" }).waitFor();
        expect(await theirs.getByText("Have an account already? Sign in, then join.").isVisible()).toBe(true);
        const account = theirs.getByRole("region", { name: "New here? Make your account" });
        await account.getByLabel("Username").fill(newcomer);
        await account.getByLabel("Password").fill("short");
        await account.getByRole("button", { name: "Make my account and join" }).click();
        await account.getByText("Choose a password of at least 8 characters.").waitFor();
        await checkPageState(theirs, "invite-newcomer");
        await account.getByLabel("Password").fill(password);
        await account.getByRole("button", { name: "Make my account and join" }).click();
        await theirs.waitForURL(`${web.stack.url}/app/workspaces?workspace=${workspaceId}`);
        await theirs.getByText(`Signed in as ${newcomer}`).waitFor();
        await theirs.locator("#workspace-role", { hasText: "editor" }).waitFor();
        // An editor makes links and keys; the members are theirs to see, not to change; the audit log is the owners'.
        await theirs.getByRole("region", { name: "Links", exact: true }).getByRole("row").nth(1).waitFor();
        expect(await theirs.getByRole("button", { name: "Shorten" }).isVisible()).toBe(true);
        expect(await theirs.getByRole("button", { name: "Create key" }).isVisible()).toBe(true);
        const theirMembers = theirs.getByRole("region", { name: "Members" });
        await theirMembers.getByRole("row").filter({ hasText: owner }).waitFor();
        expect(await theirMembers.getByRole("combobox").count()).toBe(0);
        expect(await theirMembers.getByRole("button", { name: /^Remove/ }).count()).toBe(0);
        expect(await hiddenOne(theirs.locator("#invite-form"))).toEqual([1, true]);
        expect(await hiddenOne(theirs.locator("#audit-log"))).toEqual([1, true]);
        await checkPageState(theirs, "workspaces-editor");

        // The invite was used up: opened again, it is refused, and joining again is said plainly.
        await theirs.goto(inviteLink);
        await theirs.reload();
        await theirs.getByRole("button", { name: "Join the workspace" }).click();
        await theirs.getByText("This invite is unknown, used already or expired.").waitFor();
        expect(unexpectedProblems(theirProblems, [401, 404])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "the owner sees the newcomer, makes them a viewer, and the viewer's page offers no change; the last owner stays one",
    async () => {
      await page.reload();
      const members = section("Members");
      const role = members.getByLabel(`Role of ${newcomer}`);
      await role.waitFor();
      expect(await role.inputValue()).toBe("editor");
      // A role changes on Save, not while the select is stepped through.
      const save = members.getByRole("button", { name: `Save the role of ${newcomer}` });
      expect(await save.isDisabled()).toBe(true);
      await role.selectOption("viewer");
      expect((await api("GET", `/workspaces/${workspaceId}/members`)).body.results).toContainEqual(
        expect.objectContaining({ username: newcomer, role: "editor" }),
      );
      await save.click();
      await members
        .getByRole("status")
        .filter({ hasText: `${newcomer} is now viewer in Launch.` })
        .waitFor();
      expect((await api("GET", `/workspaces/${workspaceId}/members`)).body.results).toContainEqual(
        expect.objectContaining({ username: newcomer, role: "viewer" }),
      );

      // The owner may not step down while no one else owns it: the API's refusal, said in place, the select put back.
      await members.getByLabel(`Role of ${owner}`).selectOption("editor");
      await members.getByRole("button", { name: `Save the role of ${owner}` }).click();
      await members
        .getByRole("alert")
        .filter({ hasText: `The role of ${owner} could not be changed` })
        .waitFor();
      expect(await members.getByLabel(`Role of ${owner}`).inputValue()).toBe("owner");
      await checkPageState(page, "workspaces-members");

      const { page: viewer, context, problems: viewerProblems } = await web.browser.open(`${web.stack.url}/app/workspaces?workspace=${workspaceId}`);
      try {
        await viewer.getByLabel("Username").fill(newcomer);
        await viewer.getByLabel("Password").fill(password);
        await viewer.getByRole("button", { name: "Sign in" }).click();
        await viewer.locator("#workspace-role", { hasText: "viewer" }).waitFor();
        const links = viewer.getByRole("region", { name: "Links", exact: true });
        await links.getByRole("row").nth(1).waitFor();
        expect(await hiddenOne(anyButton(links, "Shorten"))).toEqual([1, true]);
        expect(await links.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
        expect(await hiddenOne(anyButton(viewer, "Create key"))).toEqual([1, true]);
        await checkPageState(viewer, "workspaces-viewer");
        expect(unexpectedProblems(viewerProblems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a workspace key offers no admin scope, is shown once and works on the workspace's links only",
    async () => {
      const keys = section("API keys");
      expect(await keys.getByRole("group", { name: "Scopes" }).getByRole("checkbox").count()).toBe(4);
      await keys.getByLabel("Name").fill("landing page");
      await keys.getByLabel("Make links only").check();
      await keys.getByRole("button", { name: "Create key" }).click();
      await keys.getByRole("group", { name: "Copy the new key now: you will not see it again" }).waitFor();
      const key = await keys.getByLabel("New API key").inputValue();
      expect(key).toStartWith("lgk_");
      await keys.getByRole("row", { name: /landing page/ }).waitFor();
      const made = await api("POST", "/shorten/", { long_url: "https://example.com/from-key" }, key);
      expect([made.status, made.body.manage_token]).toEqual([201, null]);
      // The key's answer is the public record; read back by an admin, the link is the workspace's.
      expect((await api("GET", `/shorten/${made.body.short_url}/`)).body.workspace).toBe(Number(workspaceId));
      expect((await api("GET", `/shorten/?workspace=${workspaceId}`, undefined, key)).status).toBe(403);
      await keys.getByRole("button", { name: "I have copied it" }).click();
    },
    flowTimeoutMs,
  );

  test(
    "a second workspace has panels of its own; switching back shows the first's, its address naming it",
    async () => {
      const form = page.getByRole("form", { name: "New workspace" });
      await form.getByLabel("Name").fill("Second");
      await form.getByRole("button", { name: "Create workspace" }).click();
      await page.waitForURL((address) => ![null, workspaceId].includes(address.searchParams.get("workspace")));
      expect(await page.locator("#workspace-choice option:checked").innerText()).toBe("Second");
      const second = new URL(page.url()).searchParams.get("workspace");
      expect(second).not.toBe(workspaceId);
      await section("Links").getByText("No links yet.").waitFor();
      await section("API keys").getByText("No API keys yet.").waitFor();
      // Its members are read anew: its owner alone, once the list is in.
      await section("Members").getByRole("row").filter({ hasText: owner }).waitFor();
      expect(await section("Members").getByRole("row").count()).toBe(2);

      await page.getByLabel("Workspace", { exact: true }).selectOption(workspaceId);
      await section("API keys")
        .getByRole("row", { name: /landing page/ })
        .waitFor();
      expect(new URL(page.url()).searchParams.get("workspace")).toBe(workspaceId);
      await section("Links").getByRole("row").nth(1).waitFor();
    },
    flowTimeoutMs,
  );

  test(
    "the owner's audit log names who did what, newest first, and downloads whole",
    async () => {
      await page.reload();
      const audit = section("Audit log");
      await audit.getByRole("row").nth(1).waitFor();
      const rows = await audit.getByRole("row").allInnerTexts();
      const events = rows.slice(1).map((row) => row.split("\t").slice(1, 3).join(" "));
      expect(events.slice(0, 6)).toEqual([
        expect.stringMatching(/^key key_\S+ link\.create$/),
        `${owner} key.create`,
        `${owner} member.role`,
        `${newcomer} member.join`,
        `${owner} member.invite`,
        `${owner} link.create`,
      ]);
      const file = await page.request.get(`${web.stack.url}${await audit.getByRole("link", { name: "Download the whole log (CSV)" }).getAttribute("href")}`);
      expect(file.status()).toBe(200);
      expect(await file.text()).toContain("member.join");
      await checkPageState(page, "workspaces-audit");
    },
    flowTimeoutMs,
  );

  test(
    "removing a member asks first, in the row; then they are gone from the table and from the workspace",
    async () => {
      const members = section("Members");
      const theirRow = members.getByRole("row").filter({ hasText: newcomer });
      await theirRow.getByRole("button", { name: `Remove ${newcomer}` }).click();
      const question = members.getByRole("group", { name: `Remove ${newcomer}?` });
      await question.getByRole("button", { name: "Cancel" }).click();
      expect(await question.count()).toBe(0);
      await theirRow.getByRole("button", { name: `Remove ${newcomer}` }).click();
      await checkPageState(page, "workspaces-remove-question");
      await question.getByRole("button", { name: "Yes, remove" }).click();
      await members
        .getByRole("status")
        .filter({ hasText: `${newcomer} removed.` })
        .waitFor();
      await theirRow.waitFor({ state: "detached" });
      const left = (await api("GET", `/workspaces/${workspaceId}/members`)).body.results as { username: string }[];
      expect(left.map((member) => member.username)).toEqual([owner]);
    },
    flowTimeoutMs,
  );

  test(
    "signing out ends the sign-in: the form again, and the API no longer takes the browser's cookie",
    async () => {
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByText("You are signed out.").waitFor();
      expect((await page.request.get(`${web.stack.url}/login/session`)).status()).toBe(401);
      expect(unexpectedProblems(problems, [401, 409])).toEqual([]);
    },
    flowTimeoutMs,
  );

  test(
    "an admin signed in with the same browser is told to sign out on the Admin page first",
    async () => {
      const { page: admins, context } = await web.browser.open(`${web.stack.url}/`);
      try {
        expect((await admins.request.post(`${web.stack.url}/admin/session`, { data: stackAdmin })).status()).toBe(200);
        // A person's sign-in beside it would make two, which the API refuses: the page offers none.
        await admins.goto(`${web.stack.url}/app/workspaces`);
        await admins.getByText(`You are signed in as the admin ${stackAdmin.username} in this browser`).waitFor();
        expect(await hiddenOne(anyButton(admins, "Sign in"))).toEqual([1, true]);
        await admins.goto(inviteLink);
        await admins.getByText(`You are signed in as the admin ${stackAdmin.username} in this browser`).waitFor();
        expect(await hiddenOne(anyButton(admins, "Make my account and join"))).toEqual([1, true]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );
});
