-- Retention (tenants.settings.retentionDays, docs/console-api.md "Settings"): the worker's sweep
-- erases a finished session's personal data once it is older than the tenant's retention and
-- stamps the row, so the sweep never looks at it again and readers can tell "erased" from "never
-- given". The row, its statuses, decisions and the audit trail stay for the tenant and statistics.
ALTER TABLE verification_sessions ADD COLUMN data_erased_at timestamptz;
-- The sweep looks only at sessions not yet erased.
CREATE INDEX verification_sessions_unerased ON verification_sessions (tenant_id)
  WHERE data_erased_at IS NULL;
