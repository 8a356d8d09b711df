import { HttpError } from "@linkgeo/shared";

/** 404 `not_found`: no job has this id, or it expired (the message says which may be the case, never which it is). */
export class JobNotFound extends HttpError {
  private constructor() {
    super(404, "not_found", "no geocoding job has this id (a finished job is deleted once it expires)");
  }

  static forId(): JobNotFound {
    return new JobNotFound();
  }
}
