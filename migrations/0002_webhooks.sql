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

-- Leases due events for one delivery worker, at most p_batch, never more than p_cap in flight per
-- endpoint across every process. One round trip, and a plan cached per connection by PL/pgSQL:
--  1. a cheap probe: most polls find nothing due;
--  2. a transaction-level advisory lock, so claims of several processes run one at a time; the
--     claim statement after it takes a fresh snapshot (READ COMMITTED), so it sees every lease
--     committed before it and no two processes can fill the same free slot;
--  3. a walk endpoint by endpoint (a loose index scan over pending events), taking per endpoint at
--     most its free slots, oldest due first: a dead endpoint's backlog costs one short index probe
--     and never hides others' due events.
-- fills_endpoint: this claim used the endpoint's last free slot.
CREATE FUNCTION claim_webhook_events(
  p_now timestamptz, p_lease_until timestamptz, p_lease_token text, p_batch integer, p_cap integer
) RETURNS TABLE (
  id text, tenant_id text, session_id text, event text, callback_url text, endpoint text,
  body_enc bytea, attempt_count integer, scheduled_attempt_count integer,
  first_attempt_at timestamptz, state text, next_attempt_at timestamptz, fills_endpoint boolean
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM webhook_events d
    WHERE d.state = 'pending' AND d.next_attempt_at <= p_now AND (d.lease_until IS NULL OR d.lease_until <= p_now)
  ) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(2003329900);
  RETURN QUERY
  WITH RECURSIVE endpoints AS (
    (SELECT e.endpoint AS ep FROM webhook_events e WHERE e.state = 'pending' ORDER BY e.endpoint LIMIT 1)
    UNION ALL
    SELECT (SELECT e.endpoint FROM webhook_events e
            WHERE e.state = 'pending' AND e.endpoint > endpoints.ep
            ORDER BY e.endpoint LIMIT 1)
    FROM endpoints WHERE endpoints.ep IS NOT NULL
  ),
  free AS (
    SELECT endpoints.ep,
           p_cap - (SELECT count(*)::int FROM webhook_events b
                    WHERE b.lease_until IS NOT NULL AND b.endpoint = endpoints.ep AND b.lease_until > p_now) AS slots
    FROM endpoints WHERE endpoints.ep IS NOT NULL
  ),
  candidates AS (
    SELECT c.cid, c.due, c.n, free.slots
    FROM free CROSS JOIN LATERAL (
      SELECT e.id AS cid, e.next_attempt_at AS due,
             row_number() OVER (ORDER BY e.next_attempt_at, e.id) AS n
      FROM webhook_events e
      WHERE e.state = 'pending' AND e.endpoint = free.ep AND e.next_attempt_at <= p_now
        AND (e.lease_until IS NULL OR e.lease_until <= p_now)
      ORDER BY e.next_attempt_at, e.id
      LIMIT p_cap
    ) c
    WHERE free.slots > 0 AND c.n <= free.slots
  ),
  picked AS (
    SELECT candidates.cid, candidates.n, candidates.slots FROM candidates
    ORDER BY candidates.due, candidates.cid LIMIT p_batch
  )
  UPDATE webhook_events w
  SET lease_until = p_lease_until, lease_token = p_lease_token,
      attempt_count = w.attempt_count + 1, updated_at = p_now
  FROM picked WHERE w.id = picked.cid
  RETURNING w.id, w.tenant_id, w.session_id, w.event, w.callback_url, w.endpoint, w.body_enc,
            w.attempt_count, w.scheduled_attempt_count, w.first_attempt_at, w.state, w.next_attempt_at,
            (picked.n = picked.slots);
END
$$;
