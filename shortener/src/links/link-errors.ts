import { HttpError } from "@linkgeo/shared";

export class LinkNotFound extends HttpError {
  static for(code: string): LinkNotFound {
    return new LinkNotFound(404, "not_found", `no short URL "${code}"`);
  }
}

export class AliasTaken extends HttpError {
  static for(alias: string): AliasTaken {
    return new AliasTaken(409, "conflict", `short_url "${alias}" is already taken`);
  }
}

export class InvalidAlias extends HttpError {
  static because(reason: string): InvalidAlias {
    return new InvalidAlias(400, "invalid_request", reason);
  }
}

export class InvalidUrl extends HttpError {
  static because(reason: string): InvalidUrl {
    return new InvalidUrl(400, "invalid_url", reason);
  }
}
