import { WorkspaceNotFound } from "../people/people-errors.ts";
import { isForeignKeyViolation } from "./storage-unavailable.ts";

/**
 * What a write of a link into `workspaceId` throws when the link's foreign
 * key refuses it: the workspace was deleted between the route's check and
 * the write (another request, another replica). The 404 of a workspace that
 * is not there, never a 500; any other error as it was.
 */
export function missingWorkspace(workspaceId: number | null | undefined): (error: unknown) => never {
  return (error) => {
    if (workspaceId !== null && workspaceId !== undefined && isForeignKeyViolation(error)) throw WorkspaceNotFound.withId(workspaceId);
    throw error;
  };
}
