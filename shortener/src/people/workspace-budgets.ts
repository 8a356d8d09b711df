import { RateLimited, type RateRule, type TokenBuckets } from "@linkgeo/shared/rate-limit";
import type { Credential } from "../auth/credential.ts";

/**
 * What a workspace's members and keys may do together per period
 * (RATE_LIMIT_WORKSPACE; docs/people.md: "Rate limits"), beside the
 * gateway's budgets per client address and per API key, which a team
 * could otherwise multiply by making keys or signing in many times: one
 * token per link made in the workspace (a create, each item of a bulk
 * create, each link an import stores), per page of its listing and per
 * export. The
 * admins and the instance's keys act above workspaces and spend nothing.
 * Buckets are shared by the replicas through Redis when the shortener has
 * it (one per process while it is away), `workspace:<id>`.
 */
export class WorkspaceBudgets {
  constructor(
    private readonly buckets: TokenBuckets,
    /** Undefined: RATE_LIMIT_WORKSPACE=off, nothing is spent. */
    private readonly rule: RateRule | undefined,
  ) {}

  /** Takes `cost` tokens of `workspaceId`'s budget for what `credential` does there; 429 (nothing taken) when they are not all there. */
  async spend(credential: Credential | undefined, workspaceId: number | null | undefined, cost = 1): Promise<void> {
    if (!this.rule || workspaceId === null || workspaceId === undefined || cost <= 0 || !spendsWorkspaceBudget(credential)) return;
    const decision = await this.buckets.take(`workspace:${workspaceId}`, this.rule, cost);
    if (!decision.allowed) throw RateLimited.refused(decision, this.rule);
  }
}

/** Who is a workspace's: its members, and its own keys; not the admins nor the instance's keys. */
function spendsWorkspaceBudget(credential: Credential | undefined): boolean {
  return credential?.kind === "person" || (credential?.kind === "api-key" && credential.workspaceId !== null);
}
