-- The event store records any kind of event, not only decisions (src/webhooks/webhook-event-kinds.ts):
-- each row names its kind, and its idempotency key is unique per session and kind. A kind's key
-- says what makes two recordings the same event (a decision's generation, a review's id, the one
-- expiry of a session). The rows from before keep their keys ('auto:N', 'review:ID', 'expired'),
-- which the kinds still produce, so a job retried across the upgrade still finds its event.
ALTER TABLE webhook_events RENAME COLUMN decision_key TO idempotency_key;
ALTER TABLE webhook_events ADD COLUMN kind text;
UPDATE webhook_events SET kind = CASE
  WHEN event = 'verification.expired' THEN 'expired'
  WHEN idempotency_key LIKE 'review:%' THEN 'review'
  ELSE 'decision'
END;
ALTER TABLE webhook_events ALTER COLUMN kind SET NOT NULL;
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_session_id_decision_key_key;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_session_kind_key
  UNIQUE (session_id, kind, idempotency_key);
