-- Identity hashes become keyed (src/platform/crypto/keyed-hash.ts): HMAC under a key derived from
-- the keyring, named by hash_key_id so that lookups try every key of the keyring after a rotation.
-- Rows written before hold a plain SHA-256 with hash_key_id NULL. SQL cannot know the key, so they
-- are rehashed when a process opens the platform, after the migrations and before it serves or
-- takes a job (src/pipeline/identity-hashes.ts, rehashLegacyIdentityKeys): the new hash is the HMAC
-- of the stored digest, so no plaintext is needed and no plain digest is left behind.
ALTER TABLE session_identity_keys ADD COLUMN hash_key_id text;
-- Finds what is left to rehash at each start without reading the table; empty once rehashed.
CREATE INDEX session_identity_keys_unkeyed ON session_identity_keys (session_id) WHERE hash_key_id IS NULL;
