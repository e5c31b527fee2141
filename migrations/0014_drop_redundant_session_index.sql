-- verification_sessions_tenant_created (tenant_id, created_at DESC, id DESC) serves every query that
-- verification_sessions_tenant (tenant_id, created_at) could, scanned in either direction: one index
-- fewer to maintain on every session INSERT (create-session, the API's hottest write).
DROP INDEX IF EXISTS verification_sessions_tenant;
