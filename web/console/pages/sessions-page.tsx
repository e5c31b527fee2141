// Sessions of the tenant, newest first, with search (session id or state prefix) and filters;
// "more" pages on with the server's `next` cursor (issue 8 item 4).
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

export function SessionsPage({ tenantId }: { tenantId: string }) {
  const { api, t } = useConsole();
  const [filter, setFilter] = useState<SessionFilter>({});
  const [extra, setExtra] = useState<SessionRow[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);
  const path = api.tenantPath(tenantId, 'sessions');
  const { data, error } = useLoad(async () => {
    const answer = await api.get<{ sessions: SessionRow[]; next: string | null }>(path, filterQuery(filter));
    setExtra([]);
    setNext(answer.next ?? null);
    return answer;
  }, [tenantId, filter]);

  const more = async () => {
    if (!next) return;
    try {
      const answer = await api.get<{ sessions: SessionRow[]; next: string | null }>(path, {
        ...filterQuery(filter),
        before: next,
      });
      setExtra([...extra, ...answer.sessions]);
      setNext(answer.next ?? null);
    } catch (failure) {
      setMoreError(failure);
    }
  };

  return (
    <section>
      <h1>{t('sessions.title')}</h1>
      <SessionFilters withSearch onApply={setFilter} />
      <ErrorText error={error ?? moreError} />
      {data ? <SessionTable tenantId={tenantId} sessions={[...data.sessions, ...extra]} /> : null}
      {next ? (
        <button type="button" class="secondary" onClick={more}>
          {t('common.more')}
        </button>
      ) : null}
    </section>
  );
}
