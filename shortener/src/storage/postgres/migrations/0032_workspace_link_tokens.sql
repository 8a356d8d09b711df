-- A link of a workspace is managed by its members and keys, never by a
-- manage token (docs/people.md): one moved into a workspace before this
-- version kept its token's hash, and moved out again its old token managed
-- it again. Every workspace link's hash is replaced by one no token matches
-- (`none:`, as imported links have; unique, as the index asks), as a move
-- into a workspace now does.
UPDATE "links" SET "manage_token_hash" = 'none:workspace:' || "code"
WHERE "workspace_id" IS NOT NULL AND "manage_token_hash" NOT LIKE 'none:%';
