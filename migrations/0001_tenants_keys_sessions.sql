-- Tenants, their API keys and verification sessions (interface §2.1, §4, §5; design.md).
CREATE TABLE tenants (
  id text PRIMARY KEY,
  name text NOT NULL,
  callback_url_prefixes text[] NOT NULL DEFAULT '{}',
  -- AES-256-GCM ciphertext with its key id (design.md "Data at rest").
  webhook_secret_enc text NOT NULL,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id),
  label text,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  -- SHA-256 of the whole key, hex; the key itself is never stored.
  key_hash text NOT NULL UNIQUE,
  -- The prefix and first characters, for people to tell keys apart.
  key_hint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  disabled_at timestamptz
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);

CREATE TABLE verification_sessions (
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'in_progress', 'liveness_success', 'completed', 'expired', 'failed')),
  callback_url text NOT NULL,
  -- The IPv4 binding of interface §4.1; NULL when none or an IPv6 value was given.
  client_ip text,
  state text,
  pre_registered_info_enc text,
  -- The one-time link of design.md: the token's hash to check it, the URL encrypted to show it.
  link_token_hash text NOT NULL UNIQUE,
  verification_url_enc text NOT NULL,
  verification_url_expires_at timestamptz NOT NULL,
  link_used_at timestamptz,
  document_type text,
  submitted_at timestamptz,
  verification_status text
    CHECK (verification_status IN ('processing', 'approved', 'rejected', 'pending_review')),
  failure_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX verification_sessions_tenant ON verification_sessions (tenant_id, created_at);
-- The expiry sweep looks only at sessions that can still expire.
CREATE INDEX verification_sessions_expiring ON verification_sessions (expires_at)
  WHERE status IN ('pending', 'in_progress', 'liveness_success') AND submitted_at IS NULL;
