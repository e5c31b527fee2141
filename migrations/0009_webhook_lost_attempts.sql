-- A delivery attempt whose worker died mid-flight (its lease ran out before the attempt was
-- recorded) is recorded as such when the lease is recovered, instead of leaving a gap in the
-- attempt numbers: outcome failure, error_class 'interrupted', started when the event was claimed
-- (updated_at is set by the claim and by nothing else while the lease is held), duration unknown (0).
-- A manual claim's lease token starts with 'm.' (src/webhooks/webhook-event-repository.ts). The
-- schedule does not move: the event is due again at once, as before.
CREATE FUNCTION recover_lost_webhook_attempts(p_now timestamptz) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  recovered integer;
BEGIN
  WITH lost AS (
    UPDATE webhook_events w
    SET lease_until = NULL, lease_token = NULL, updated_at = p_now
    FROM webhook_events old
    WHERE old.id = w.id AND w.lease_until IS NOT NULL AND w.lease_until <= p_now
    RETURNING w.id, w.attempt_count, old.updated_at AS claimed_at, old.lease_token
  ),
  recorded AS (
    INSERT INTO webhook_attempts (event_id, attempt, trigger, started_at, duration_ms, outcome,
                                  http_status, error_class, error_message, response_snippet, next_attempt_at)
    SELECT lost.id, lost.attempt_count,
           CASE WHEN lost.lease_token LIKE 'm.%' THEN 'manual' ELSE 'scheduled' END,
           lost.claimed_at, 0, 'failure', NULL, 'interrupted',
           'the delivering worker stopped before it recorded this attempt; its lease ran out', NULL, NULL
    FROM lost WHERE lost.attempt_count > 0
    ON CONFLICT DO NOTHING
    RETURNING 1
  )
  SELECT count(*)::int INTO recovered FROM lost;
  RETURN recovered;
END
$$;

-- claim_webhook_events (migration 0002) recovers lost leases first, then claims as before.
CREATE OR REPLACE FUNCTION claim_webhook_events(
  p_now timestamptz, p_lease_until timestamptz, p_lease_token text, p_batch integer, p_cap integer
) RETURNS TABLE (
  id text, tenant_id text, session_id text, event text, callback_url text, endpoint text,
  body_enc bytea, attempt_count integer, scheduled_attempt_count integer,
  first_attempt_at timestamptz, state text, next_attempt_at timestamptz, fills_endpoint boolean
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_events l WHERE l.lease_until IS NOT NULL AND l.lease_until <= p_now) THEN
    PERFORM recover_lost_webhook_attempts(p_now);
  END IF;
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
