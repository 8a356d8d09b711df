import { HttpError } from "@linkgeo/shared";

/** 404 `not_found`: no domain has this id (or it was deleted). */
export class DomainNotFound extends HttpError {
  private constructor(id: string) {
    super(404, "not_found", `no domain "${id.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32)}"`);
  }

  static withId(id: string | number): DomainNotFound {
    return new DomainNotFound(String(id));
  }
}

/** 409 `conflict`: what was asked clashes with a domain as it stands. */
export class DomainConflict extends HttpError {
  private constructor(message: string) {
    super(409, "conflict", message);
  }

  static hostTaken(host: string): DomainConflict {
    return new DomainConflict(`host "${host}" is already a domain`);
  }

  static defaultHost(host: string): DomainConflict {
    return new DomainConflict(`host "${host}" is the default domain's`);
  }

  static hasLinks(id: number): DomainConflict {
    return new DomainConflict(`the domain has links: DELETE /admin/domains/${id}?links=delete deletes them with it`);
  }

  static defaultDomain(what: string): DomainConflict {
    return new DomainConflict(`the default domain ${what}`);
  }
}

/** 400 `invalid_request`: a `domain` no domain has (it was never added, or was deleted). */
export class UnknownDomain extends HttpError {
  private constructor(host: string) {
    super(
      400,
      "invalid_request",
      `domain ${JSON.stringify(host.length > 64 ? `${host.slice(0, 64)}…` : host)} is not a domain of this service (GET /admin/domains lists them)`,
    );
  }

  static named(host: string): UnknownDomain {
    return new UnknownDomain(host);
  }
}
