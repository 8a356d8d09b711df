import { Forbidden, InvalidRequest, HttpError } from "@linkgeo/shared";
import type { Credential } from "../auth/credential.ts";
import { hashSecretToken, newSecretToken, secretTokenShape } from "../auth/secret-token.ts";
import type { People } from "./people.ts";
import { workspaceRoles, type WorkspaceRole } from "./workspace.ts";
import type { WorkspaceStore } from "./workspace-store.ts";
import { UsernameTaken, WorkspaceNotFound } from "./people-errors.ts";

/** How long an invite may be accepted: a week. */
export const inviteLifetimeMs = 7 * 24 * 60 * 60 * 1000;

const invitePrefix = "lgi_";
// The prefix and 32 random bytes in base64url: all that is ever made, and all that is looked up.
const inviteShape = secretTokenShape(invitePrefix);

/** An invite's id, as its owners list and withdraw it: the first 16 hex digits of its hash, which tell nothing of its token. */
const inviteIdOf = (idHash: string) => idHash.slice(0, 16);
const inviteIdShape = /^[0-9a-f]{16}$/;

/** 404 `not_found`: no live invite has this token (never made, used, expired, or taken back: its maker is no owner there any more). */
class InviteUnknown extends HttpError {
  constructor() {
    super(404, "not_found", "the invite is unknown, used, expired or withdrawn: ask the workspace's owner for a new one");
  }
}

/** 409 `conflict`: the person accepting is in the workspace already. */
class AlreadyMember extends HttpError {
  constructor() {
    super(409, "conflict", "you are a member of this workspace already: the invite is kept for someone else");
  }
}

export interface WorkspaceInvitesDeps {
  store: WorkspaceStore;
  people: Pick<People, "newAccount">;
  clock: () => Date;
}

/**
 * Invites (docs/people.md): an owner makes one for a role, a link shown
 * once that expires in a week; whoever accepts it, a new person with a
 * username and password or a person signed in, joins with that role, and
 * the invite is used up. A mail server is never needed.
 */
export class WorkspaceInvites {
  constructor(private readonly deps: WorkspaceInvitesDeps) {}

  /** A new invite to workspace `workspaceId` for `role`: its owner's only (a workspace they are no member of is a 404). */
  async make(workspaceId: number, input: { role: unknown }, credential: Credential): Promise<{ id: string; token: string; expiresAt: Date }> {
    const ownerId = await this.requireOwner(workspaceId, credential, "make invites");
    if (typeof input.role !== "string" || !(workspaceRoles as readonly string[]).includes(input.role)) {
      throw InvalidRequest.because(`role must be one of ${workspaceRoles.join(", ")}`);
    }
    const now = this.deps.clock();
    await this.deps.store.deleteExpiredInvites(now);
    const { token, hash } = newSecretToken(invitePrefix);
    const expiresAt = new Date(now.getTime() + inviteLifetimeMs);
    const stored = await this.deps.store.insertInvite({
      idHash: hash,
      workspaceId,
      role: input.role as WorkspaceRole,
      createdAt: now,
      expiresAt,
      madeBy: ownerId,
    });
    if (!stored) throw WorkspaceNotFound.withId(workspaceId);
    return { id: inviteIdOf(hash), token, expiresAt };
  }

  /** The workspace's invites that may still be accepted, oldest first: its owners' to read. */
  async list(workspaceId: number, credential: Credential) {
    await this.requireOwner(workspaceId, credential, "see its invites");
    const invites = await this.deps.store.liveInvites(workspaceId, this.deps.clock());
    return invites.map((invite) => ({
      id: inviteIdOf(invite.idHash),
      role: invite.role,
      madeBy: { id: invite.madeBy!, username: invite.madeByUsername },
      createdAt: invite.createdAt,
      expiresAt: invite.expiresAt,
    }));
  }

  /** Withdraws an invite before anyone accepts it (a link sent to the wrong person): its owners'. 404 for an id it has not. */
  async revoke(workspaceId: number, inviteId: string, credential: Credential): Promise<void> {
    await this.requireOwner(workspaceId, credential, "withdraw invites");
    if (!inviteIdShape.test(inviteId) || !(await this.deps.store.deleteInvite(workspaceId, inviteId))) throw new InviteUnknown();
  }

  /** The owner's person id; 404 for someone who is no member (as for a workspace that does not exist), 403 for a member who is no owner. */
  private async requireOwner(workspaceId: number, credential: Credential, what: string): Promise<number> {
    if (credential.kind !== "person") throw Forbidden.because(`the workspace's owners ${what}, signed in (POST /login)`);
    const role = await this.deps.store.roleOf(workspaceId, credential.id);
    if (role === null) throw WorkspaceNotFound.withId(workspaceId);
    if (role !== "owner") throw Forbidden.because(`only the workspace's owners ${what}`);
    return credential.id;
  }

  /**
   * Accepts the invite of `token`: as the person signed in (`credential`),
   * or as a new person of `input`'s username and password. The invite is
   * looked at first, so no password is hashed for one that does not hold,
   * and the new person is made in the transaction that uses the invite up,
   * so no account is made when someone else used it meanwhile. An invite
   * holds only while the owner who made it is still an owner there.
   */
  async accept(token: string, input: { username?: unknown; password?: unknown }, credential: Credential | undefined) {
    const idHash = inviteShape.test(token) ? hashSecretToken(token) : undefined;
    if (idHash === undefined || !(await this.deps.store.findLiveInvite(idHash, this.deps.clock()))) throw new InviteUnknown();
    let joiner: Parameters<WorkspaceStore["accept"]>[1];
    if (credential?.kind === "person") joiner = { personId: credential.id };
    else if (credential !== undefined) throw Forbidden.because("an invite is accepted by a person: sign in (POST /login), or send a username and password");
    else joiner = { newPerson: await this.deps.people.newAccount({ username: input.username, password: input.password }) };
    const accepted = await this.deps.store.accept(idHash, joiner, this.deps.clock());
    if (accepted === "unknown") throw new InviteUnknown();
    if (accepted === "member") throw new AlreadyMember();
    if (accepted === "username taken") throw UsernameTaken.named("newPerson" in joiner ? joiner.newPerson.username : "");
    return { workspace: accepted.workspace.id, role: accepted.role, username: accepted.person.username };
  }
}
