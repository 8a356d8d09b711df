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

/**
 * missingWorkspace for a write of links into several workspaces (a bulk
 * create's chunk): which one is gone is read after the refusal, from
 * `present` (the ids of those still there), so the 404 names it.
 */
export function missingWorkspaceAmong(
  workspaceIds: readonly (number | null | undefined)[],
  present: (ids: number[]) => Promise<ReadonlySet<number>> | ReadonlySet<number>,
): (error: unknown) => Promise<never> {
  return async (error) => {
    const named = [...new Set(workspaceIds.filter((id): id is number => id !== null && id !== undefined))];
    if (named.length === 0 || !isForeignKeyViolation(error)) throw error;
    const there = await present(named);
    return missingWorkspace(named.find((id) => !there.has(id)) ?? named[0])(error);
  };
}
