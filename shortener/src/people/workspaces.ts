import { Forbidden, InvalidRequest, Unauthorized } from "@linkgeo/shared";
import type { Credential } from "../auth/credential.ts";
import { noControlCharacters } from "../http/plain-text.ts";
import { mayDo } from "../auth/scopes.ts";
import type { MemberWorkspace, Workspace, WorkspaceRole } from "./workspace.ts";
import type { WorkspaceStore } from "./workspace-store.ts";

export interface WorkspacesDeps {
  store: WorkspaceStore;
  clock: () => Date;
}

const plainText = new RegExp(noControlCharacters);

/** The longest name of a workspace, in characters. */
export const workspaceNameMaxLength = 100;

/** A workspace as its reader sees it: a member with their role; an admin, above every workspace, with none. */
export type SeenWorkspace = Workspace & { role: WorkspaceRole | null };

/**
 * The rules of workspaces (docs/people.md): a person makes one and is its
 * owner; a person lists the ones they are a member of, an admin (or a key
 * with the admin scope) every one.
 */
export class Workspaces {
  constructor(private readonly deps: WorkspacesDeps) {}

  /** A new workspace of which the signed-in person is the owner; 403 for anyone else, 400 for a bad name. */
  async create(input: { name: unknown }, credential: Credential): Promise<MemberWorkspace> {
    if (credential.kind !== "person") throw Forbidden.because("a workspace is made by a person: sign in as one (POST /login)");
    const name = workspaceName(input.name);
    const made = await this.deps.store.create({ name, createdAt: this.deps.clock() }, credential.id);
    // The person was removed since the token was read.
    if (!made) throw Unauthorized.because("the sign-in token is unknown, ended or expired: sign in again (POST /login)");
    return made;
  }

  /** The caller's workspaces: a person's, with their role; every one for an admin; 403 for anyone else. */
  async list(credential: Credential): Promise<SeenWorkspace[]> {
    if (credential.kind === "person") return this.deps.store.ofPerson(credential.id);
    if (mayDo(credential, "admin")) return (await this.deps.store.all()).map((workspace) => ({ ...workspace, role: null }));
    throw Forbidden.because("workspaces are listed for a person signed in (POST /login) or an admin");
  }
}

/** A workspace's name: 1 to 100 characters once trimmed, no control characters. */
function workspaceName(raw: unknown): string {
  if (typeof raw !== "string") throw InvalidRequest.because("name must be a string");
  const name = raw.trim();
  if (name.length === 0) throw InvalidRequest.because("name must not be empty");
  if ([...name].length > workspaceNameMaxLength) throw InvalidRequest.because(`name must be at most ${workspaceNameMaxLength} characters`);
  if (!plainText.test(name)) throw InvalidRequest.because("name must not contain control characters");
  return name;
}
