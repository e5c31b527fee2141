// The reviewer's queue: pending_review cases and approvals awaiting a second reviewer, oldest first
// (the server's order), with the filters that can narrow it (no status or decision: every queued
// case is completed and pending_review).
import { useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { ErrorText, useLoad } from '../ui.tsx';
import {
  filterQuery,
  type SessionFilter,
  SessionFilters,
  type SessionRow,
  SessionTable,
} from './session-list.tsx';

export function ReviewQueuePage({ tenantId }: { tenantId: string }) {
  const { api, t } = useConsole();
  const [filter, setFilter] = useState<SessionFilter>({});
  const { data, error } = useLoad(
    () => api.get<{ sessions: SessionRow[] }>(api.tenantPath(tenantId, 'review-queue'), filterQuery(filter)),
    [tenantId, filter],
  );
  return (
    <section>
      <h1>{t('review.title')}</h1>
      <p class="lead">{t('review.lead')}</p>
      <SessionFilters withSearch={false} withStatus={false} onApply={setFilter} />
      <ErrorText error={error} />
      {data ? <SessionTable tenantId={tenantId} sessions={data.sessions} /> : null}
    </section>
  );
}
