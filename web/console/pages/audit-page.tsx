// The audit log (docs/console-api.md): who did what, when, with before and after, newest first; the
// operator can narrow it to one tenant, a tenant admin sees their own.
import { useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { ErrorText, Field, formatDate, useLoad } from '../ui.tsx';

interface AuditEntry {
  id: string;
  actor: string;
  actorEmail?: string | null;
  tenantId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  at?: string;
  createdAt?: string;
}

const PAGE = 50;

export function AuditPage() {
  const { api, t, user, language } = useConsole();
  const isOperator = user?.role === 'operator';
  const [tenantFilter, setTenantFilter] = useState('');
  const [applied, setApplied] = useState('');
  const [before, setBefore] = useState<string | undefined>(undefined);
  const tenantId = isOperator ? applied || undefined : (user?.tenantId ?? undefined);
  const { data, error } = useLoad(
    () => api.get<{ entries: AuditEntry[] }>('audit', { tenantId, limit: PAGE, before }),
    [tenantId, before],
  );
  const entries = data?.entries ?? [];
  const last = entries[entries.length - 1];
  const json = (value: unknown) =>
    value === null || value === undefined ? '—' : JSON.stringify(value, null, 1);

  return (
    <section>
      <h1>{t('audit.title')}</h1>
      {isOperator ? (
        <form
          class="filters"
          onSubmit={(event) => {
            event.preventDefault();
            setBefore(undefined);
            setApplied(tenantFilter.trim());
          }}
        >
          <Field id="audit-tenant" label={t('users.tenant')}>
            <input
              id="audit-tenant"
              value={tenantFilter}
              onInput={(e) => setTenantFilter(e.currentTarget.value)}
            />
          </Field>
          <button type="submit">{t('filter.apply')}</button>
        </form>
      ) : null}
      <ErrorText error={error} />
      {data && entries.length === 0 ? <p role="status">{t('audit.empty')}</p> : null}
      {entries.length > 0 ? (
        <div class="table-wrap">
          <table class="audit">
            <thead>
              <tr>
                <th scope="col">{t('audit.when')}</th>
                <th scope="col">{t('audit.who')}</th>
                <th scope="col">{t('audit.what')}</th>
                <th scope="col">{t('audit.target')}</th>
                <th scope="col">{t('audit.before')}</th>
                <th scope="col">{t('audit.after')}</th>
                <th scope="col">IP</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDate(entry.at ?? entry.createdAt, language)}</td>
                  <td>{entry.actorEmail ?? entry.actor}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    {entry.targetType ?? ''} <code>{entry.targetId ?? ''}</code>
                  </td>
                  <td>
                    <pre>{json(entry.before)}</pre>
                  </td>
                  <td>
                    <pre>{json(entry.after)}</pre>
                  </td>
                  <td>{entry.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {entries.length === PAGE && last ? (
        <button type="button" class="secondary" onClick={() => setBefore(last.id)}>
          {t('common.older')}
        </button>
      ) : null}
    </section>
  );
}
