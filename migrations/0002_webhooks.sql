-- Webhook events and their delivery attempts (issue 7; interface §6; design.md "Webhooks").
-- The event row is also the delivery queue: workers claim due rows with a lease (see
-- src/webhooks/webhook-event-repository.ts), so the retry schedule survives any restart.
CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants (id),
  session_id text NOT NULL REFERENCES verification_sessions (id),
  -- Exactly one event per decision: the deciding code names its decision (e.g. 'auto:1', a review id).
  decision_key text NOT NULL,
  event text NOT NULL,
  callback_url text NOT NULL,
  -- Origin of callback_url: the unit of the per-endpoint concurrency limit.
  endpoint text NOT NULL,
  -- The payload serialised once, AES-256-GCM encrypted (it carries OCR PII); decrypted it is the
  -- exact body of every attempt.
  body_enc bytea NOT NULL,
  body_sha256 text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'gone')),
  -- Attempts started (the X-Service-Attempt of the latest), and scheduled attempts finished (the
  -- position in the retry schedule; manual redeliveries do not move it).
  attempt_count integer NOT NULL DEFAULT 0,
  scheduled_attempt_count integer NOT NULL DEFAULT 0,
  first_attempt_at timestamptz,
  last_attempt_at timestamptz,
  next_attempt_at timestamptz,
  -- Set while a worker delivers; an expired lease (crashed worker) makes the event claimable again.
  lease_until timestamptz,
  lease_token text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (session_id, decision_key)
);
CREATE INDEX webhook_events_session ON webhook_events (session_id, created_at);
-- The claim walks pending events endpoint by endpoint, oldest due first.
CREATE INDEX webhook_events_due ON webhook_events (endpoint, next_attempt_at) WHERE state = 'pending';
-- In-flight deliveries per endpoint, counted on every claim.
CREATE INDEX webhook_events_leased ON webhook_events (endpoint) WHERE lease_until IS NOT NULL;

CREATE TABLE webhook_attempts (
  event_id text NOT NULL REFERENCES webhook_events (id),
  attempt integer NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('scheduled', 'manual')),
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure', 'gone')),
  http_status integer,
  error_class text,
  error_message text,
  -- First 1 KB of the response body (issue 7).
  response_snippet text,
  -- What the schedule decided after this attempt (NULL: no further automatic attempt).
  next_attempt_at timestamptz,
  PRIMARY KEY (event_id, attempt)
);
