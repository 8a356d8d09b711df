-- A manage token finds the one link it manages (GET /shorten/ with the token)
-- by its stored SHA-256, in one index lookup. Unique: no two links share one.
CREATE UNIQUE INDEX IF NOT EXISTS `links_manage_token_hash_idx` ON `links` (`manage_token_hash`);
