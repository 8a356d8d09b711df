import { BoundedMap, describeError, Forbidden, HttpError, InvalidRequest, type ApiKeyView, type Logger } from "@linkgeo/shared";
import { nanoid } from "nanoid";
import { parseInstant } from "../http/instant.ts";
import { apiKeyScopes, hashApiKey, newApiKey, type ApiKey, type ApiKeyScope } from "./api-key.ts";
import type { ApiKeyStore, FoundApiKey } from "./api-key-store.ts";
import { roleAllows, type WorkspaceRole } from "./roles.ts";

/** 404 `not_found`: no API key has this id (or it was revoked). */
export class ApiKeyNotFound extends HttpError {
  private constructor(id: string) {
    super(404, "not_found", `no API key "${id.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64)}"`);
  }

  static withId(id: string): ApiKeyNotFound {
    return new ApiKeyNotFound(id);
  }
}

export interface ApiKeysDeps {
  store: ApiKeyStore;
  clock: () => Date;
  log: Logger;
  /**
   * How long a replica trusts what it read of a key, at most: a revoked key
   * stops working on every replica within this, and the promise is a
   * second, so the default, 750 ms, leaves room for the request that finds
   * out.
   */
  trustMs?: number;
  /** How often the last uses are written (one statement for every key used). Default 10,000 ms. */
  recordUsesEveryMs?: number;
  /** Milliseconds on a monotonic clock; tests pass one they move. */
  now?: () => number;
}

const maxNameLength = 100;
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * API keys: made and revoked by admins, each shown once and stored as its
 * SHA-256. A request's key is looked up once a second at most per replica
 * (so a revoked key stops within `trustMs` everywhere, without a read per
 * request); an expired one stops at once. Last uses are kept in memory and
 * written every `recordUsesEveryMs`, not once per request.
 */
export class ApiKeys {
  private readonly trusted = new BoundedMap<string, { key: ApiKey | null; until: number }>(10_000);
  private readonly lastUses = new Map<string, Date>();
  private readonly trustMs: number;
  private readonly now: () => number;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly deps: ApiKeysDeps) {
    this.trustMs = deps.trustMs ?? 750;
    this.now = deps.now ?? (() => performance.now());
    this.timer = setInterval(() => void this.recordUses(), deps.recordUsesEveryMs ?? 10_000);
    this.timer.unref();
  }

  /**
   * A new key: an admin's (no `maker`), over every link, or one a member
   * makes in their workspace, whose scopes never go beyond what the maker's
   * role allows there (403 naming the first that does; `admin` is never a
   * workspace key's).
   */
  async create(
    input: { name: unknown; scopes: unknown; expires_at?: unknown },
    maker?: { workspaceId: number; personId: number; role: WorkspaceRole },
  ): Promise<{ view: ApiKeyView; key: string }> {
    const name = parseName(input.name);
    const scopes = parseScopes(input.scopes);
    const beyond = maker && scopes.find((scope) => !roleAllows(maker.role, scope));
    if (maker && beyond) throw Forbidden.because(`a key never carries more than its maker's role: ${maker.role} does not allow ${beyond}`);
    const now = this.deps.clock();
    const expiresAt = input.expires_at === undefined || input.expires_at === null ? null : parseInstant(input.expires_at, "expires_at");
    if (expiresAt && expiresAt.getTime() <= now.getTime()) throw InvalidRequest.because("expires_at is already past");
    const { key, hash } = newApiKey();
    const stored: ApiKey = {
      id: `key_${nanoid(16)}`,
      name,
      keyHash: hash,
      scopes,
      createdAt: now,
      expiresAt,
      lastUsedAt: null,
      workspaceId: maker?.workspaceId ?? null,
      madeBy: maker?.personId ?? null,
    };
    await this.deps.store.insert(stored);
    return { view: toView(stored), key };
  }

  /** Every key, or workspace `workspaceId`'s, newest first, each with its last use as this replica knows it. */
  async list(workspaceId?: number): Promise<Array<{ key: ApiKey; view: ApiKeyView }>> {
    const keys = await this.deps.store.list(workspaceId);
    return keys.map((key) => ({ key, view: toView({ ...key, lastUsedAt: later(key.lastUsedAt, this.lastUses.get(key.id)) }) }));
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.deps.store.delete(id))) throw ApiKeyNotFound.withId(id);
    this.lastUses.delete(id);
    // This replica forgets it at once; the others within trustMs.
    for (const [hash, entry] of this.trusted.entries()) if (entry.key?.id === id) this.trusted.delete(hash);
  }

  /**
   * This replica forgets at once what it read of the keys `gone` picks
   * (deleted with a workspace or a membership); the others within trustMs.
   */
  forget(gone: (key: ApiKey) => boolean): void {
    for (const [hash, entry] of this.trusted.entries()) if (entry.key && gone(entry.key)) this.trusted.delete(hash);
  }

  /**
   * The live key this is, or undefined (unknown, revoked, expired, or a
   * workspace's key whose maker's role there no longer allows its scopes:
   * demoted or removed, they disable it). Records the use.
   */
  async verify(key: string): Promise<ApiKey | undefined> {
    const hash = hashApiKey(key);
    let entry = this.trusted.get(hash);
    if (!entry || entry.until <= this.now()) {
      const found = await this.deps.store.findByHash(hash);
      entry = { key: found && inForce(found) ? found : null, until: this.now() + this.trustMs };
      this.trusted.set(hash, entry);
    }
    const found = entry.key;
    const at = this.deps.clock();
    if (!found || (found.expiresAt !== null && found.expiresAt.getTime() <= at.getTime())) return undefined;
    this.lastUses.set(found.id, at);
    return found;
  }

  /** Writes the last uses seen since the last write; a failure is logged and they are kept for the next. */
  async recordUses(): Promise<void> {
    if (this.lastUses.size === 0) return;
    const uses = new Map(this.lastUses);
    this.lastUses.clear();
    try {
      await this.deps.store.recordUses(uses);
    } catch (error) {
      for (const [id, at] of uses) if (!this.lastUses.has(id)) this.lastUses.set(id, at);
      this.deps.log.warn("cannot record API key uses", { keys: uses.size, error: describeError(error) });
    }
  }

  /** Graceful shutdown: the last uses written, the timer stopped. */
  async drain(): Promise<void> {
    clearInterval(this.timer);
    await this.recordUses();
  }
}

/** Whether a key found may be used: an admin's always; a workspace's while its maker's role there allows every one of its scopes. */
function inForce(key: FoundApiKey): boolean {
  const role = key.makerRole;
  if (key.workspaceId === null) return true;
  return role !== null && key.scopes.every((scope) => roleAllows(role, scope));
}

function parseName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "" || [...value].length > maxNameLength || controlCharacter.test(value)) {
    throw InvalidRequest.because(`name must be 1 to ${maxNameLength} characters, without control characters`);
  }
  return value;
}

function parseScopes(value: unknown): ApiKeyScope[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((scope) => apiKeyScopes.includes(scope))) {
    throw InvalidRequest.because(`scopes must be a list of one or more of ${apiKeyScopes.join(", ")}`);
  }
  return [...new Set(value as ApiKeyScope[])];
}

function later(a: Date | null, b: Date | undefined): Date | null {
  if (!b) return a;
  return a && a.getTime() > b.getTime() ? a : b;
}

function toView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    workspace: key.workspaceId,
  };
}
