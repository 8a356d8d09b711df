import { HttpError } from "@linkgeo/shared";
import { codeOfKey } from "./link-key.ts";

/** 404 `not_found`: no link has this code (or it was deleted). */
export class LinkNotFound extends HttpError {
  private constructor(code: string) {
    super(404, "not_found", `no short URL "${code}"`);
  }

  /** `key`: the link's key (link-key.ts); the message names its code. */
  static for(key: string): LinkNotFound {
    return new LinkNotFound(codeOfKey(key));
  }
}

/** 409 `conflict`: the alias asked for is another link's code. */
export class AliasTaken extends HttpError {
  private constructor(alias: string) {
    super(409, "conflict", `short_url "${alias}" is already taken`);
  }

  static for(alias: string): AliasTaken {
    return new AliasTaken(alias);
  }
}

/** 400 `invalid_request`: the alias is out of shape or a reserved word. */
export class InvalidAlias extends HttpError {
  private constructor(reason: string) {
    super(400, "invalid_request", reason);
  }

  static because(reason: string): InvalidAlias {
    return new InvalidAlias(reason);
  }
}

/** 400 `invalid_url`: the long URL is not one a link may point to. */
export class InvalidUrl extends HttpError {
  private constructor(reason: string) {
    super(400, "invalid_url", reason);
  }

  static because(reason: string): InvalidUrl {
    return new InvalidUrl(reason);
  }
}

/** 400 `harmful_destination`: a threat feed lists the URL (docs/abuse.md); the refusal names the list, never the entry that matched. */
export class HarmfulDestination extends HttpError {
  private constructor(reason: string) {
    super(400, "harmful_destination", reason);
  }

  static listedBy(field: string, list: string): HarmfulDestination {
    return new HarmfulDestination(`${field} is on the threat list ${JSON.stringify(list)}: it may not be a link's destination here`);
  }
}

/** 401 `unauthorized`: the password sent to unlock a protected link is not its password. */
export class WrongPassword extends HttpError {
  private constructor() {
    super(401, "unauthorized", "the password is not this link's");
  }

  static forLink(): WrongPassword {
    return new WrongPassword();
  }
}

/** 401 `unauthorized`: the link is protected; send its password to its short URL (POST, field `password`). */
export class PasswordRequired extends HttpError {
  private constructor() {
    super(401, "unauthorized", "this link is protected by a password: POST it to the short URL as the field password");
  }

  static forLink(): PasswordRequired {
    return new PasswordRequired();
  }
}

/** 410 `gone`: the link has expired or used up its visits, and names nowhere else to go; or the admins disabled it. */
export class LinkGone extends HttpError {
  private constructor(reason: "expired" | "exhausted" | "disabled") {
    super(410, "gone", goneMessages[reason]);
  }

  static because(reason: "expired" | "exhausted" | "disabled"): LinkGone {
    return new LinkGone(reason);
  }
}

const goneMessages = {
  expired: "this short link has expired",
  exhausted: "this short link has been used as many times as it may be",
  disabled: "this short link has been disabled by this service's admins",
};

/** 451 `quarantined`: a threat list names the link's destination, or the admins held it after a report; where it leads is not told. */
export class LinkQuarantined extends HttpError {
  private constructor() {
    super(451, "quarantined", "this short link is quarantined: its destination was listed or reported as harmful, so it sends no one there");
  }

  static here(): LinkQuarantined {
    return new LinkQuarantined();
  }
}
