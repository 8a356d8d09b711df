import { HttpError } from "@linkgeo/shared";

/** 409 `conflict`: the username is someone's already (in any case: usernames are kept in lower case). */
export class UsernameTaken extends HttpError {
  private constructor(username: string) {
    super(409, "conflict", `the username "${username}" is taken`);
  }

  static named(username: string): UsernameTaken {
    return new UsernameTaken(username);
  }
}

/** 409 `conflict`: the person is in as many workspaces as one may be. */
export class WorkspaceLimit extends HttpError {
  private constructor(max: number) {
    super(409, "conflict", `a person may be in at most ${max} workspaces`);
  }

  static reached(max: number): WorkspaceLimit {
    return new WorkspaceLimit(max);
  }
}

/** 404 `not_found`: no workspace of this id that the caller may see (one they are no member of answers the same). */
export class WorkspaceNotFound extends HttpError {
  private constructor(id: string) {
    super(404, "not_found", `no workspace "${id.replace(/[^0-9]/g, "").slice(0, 12)}"`);
  }

  static withId(id: string | number): WorkspaceNotFound {
    return new WorkspaceNotFound(String(id));
  }
}

/** 404 `not_found`: no member of this id in the workspace. */
export class MemberNotFound extends HttpError {
  private constructor(id: string) {
    super(404, "not_found", `no member "${id.replace(/[^0-9]/g, "").slice(0, 12)}" in this workspace`);
  }

  static withId(id: string | number): MemberNotFound {
    return new MemberNotFound(String(id));
  }
}

/** 409 `conflict`: the change would leave the workspace without an owner. */
export class LastOwner extends HttpError {
  private constructor() {
    super(409, "conflict", "a workspace keeps at least one owner: make another member an owner first");
  }

  static stays(): LastOwner {
    return new LastOwner();
  }
}

/** 409 `conflict`: a workspace with links is deleted only with `?links=delete`. */
export class WorkspaceHasLinks extends HttpError {
  private constructor() {
    super(409, "conflict", "the workspace has links: delete them with it (?links=delete), or move them out first");
  }

  static refused(): WorkspaceHasLinks {
    return new WorkspaceHasLinks();
  }
}

/** 409 `conflict`: an owner deleting a workspace with its links, one of which the admins hold (quarantined or disabled). */
export class WorkspaceHasHeldLinks extends HttpError {
  private constructor() {
    super(409, "conflict", "the workspace has links this service's admins hold (quarantined or disabled): only an admin deletes it with them");
  }

  static refused(): WorkspaceHasHeldLinks {
    return new WorkspaceHasHeldLinks();
  }
}

/** 404 `not_found`: no person of this id. */
export class PersonNotFound extends HttpError {
  private constructor(id: string) {
    super(404, "not_found", `no person "${id.replace(/[^0-9]/g, "").slice(0, 12)}"`);
  }

  static withId(id: string | number): PersonNotFound {
    return new PersonNotFound(String(id));
  }
}

/** 409 `conflict`: a person who is the only owner of workspaces is not deleted, or they would be left with no one to run them. */
export class SoleOwner extends HttpError {
  private constructor(workspaceIds: readonly number[]) {
    const named = workspaceIds.slice(0, 10).join(", ") + (workspaceIds.length > 10 ? ` and ${workspaceIds.length - 10} more` : "");
    super(409, "conflict", `the person is the only owner of workspace ${named}: make another member an owner there, or delete it, first`);
  }

  static of(workspaceIds: readonly number[]): SoleOwner {
    return new SoleOwner(workspaceIds);
  }
}
