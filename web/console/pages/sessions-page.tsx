// Sessions of the tenant, newest first, with search (session id or state prefix; the person's name,
// birth date or document number) and filters; "more" pages on with the server's `next` cursor; the
// filtered list downloads as CSV. Operators read any tenant's sessions here, read-only.
import { useState } from 'preact/hooks';
import { withQuery } from '../console-api.ts';
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
  const { api, t, user } = useConsole();
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
      {user?.role === 'operator' ? (
        <p class="banner" role="note">
          {t('sessions.operatorReadOnly', { tenantId })}
        </p>
      ) : null}
      <SessionFilters withSearch withStatus onApply={setFilter} />
      <p class="export">
        <a
          class="button secondary"
          href={withQuery(`/console/api/${path}.csv`, filterQuery(filter))}
          download
        >
          {t('sessions.exportCsv')}
        </a>{' '}
        <small class="hint">{t('sessions.exportHint')}</small>
      </p>
      <ErrorText error={error ?? moreError} />
      {data ? <SessionTable tenantId={tenantId} sessions={[...data.sessions, ...extra]} /> : null}
      {next ? (
        <button type="button" class="secondary" onClick={more}>
          {filter.name || filter.birthDate ? t('sessions.searchOlder') : t('common.more')}
        </button>
      ) : null}
    </section>
  );
}
