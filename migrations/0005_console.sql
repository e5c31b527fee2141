-- Console accounts, their password links and sessions, and the audit log (issue 8,
-- docs/console-api.md).
CREATE TABLE console_users (
  id text PRIMARY KEY,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('operator', 'tenant_admin', 'reviewer')),
  tenant_id text REFERENCES tenants (id),
  -- scrypt$N$r$p$<salt b64>$<hash b64>; NULL until the user follows the password link.
  password_hash text,
  disabled_at timestamptz,
  failed_login_count integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_login_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Operators see every tenant; the other roles belong to exactly one.
  CHECK ((role = 'operator') = (tenant_id IS NULL))
);
CREATE UNIQUE INDEX console_users_email ON console_users (lower(email));
CREATE INDEX console_users_tenant ON console_users (tenant_id, created_at);

-- One-time links to set a password: only the token's SHA-256 is kept.
CREATE TABLE console_password_tokens (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES console_users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX console_password_tokens_user ON console_password_tokens (user_id);

-- Signed-in browsers: the cookie's SHA-256, the CSRF token, idle and absolute expiry.
CREATE TABLE console_sessions (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES console_users (id),
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip text
);
CREATE INDEX console_sessions_user ON console_sessions (user_id);

-- Who did what, when, with the state before and after (secrets redacted).
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL,
  actor text NOT NULL,
  actor_user_id text,
  tenant_id text,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text,
  before jsonb,
  after jsonb,
  ip text
);
CREATE INDEX audit_log_tenant ON audit_log (tenant_id, id DESC);
