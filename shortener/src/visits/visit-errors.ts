import { ServiceUnavailable } from "@linkgeo/shared";

/** So many visits are already waiting for the database that one more would only pile up in memory. */
export class VisitsBacklogFull extends ServiceUnavailable {
  constructor() {
    super("the database");
  }
}
