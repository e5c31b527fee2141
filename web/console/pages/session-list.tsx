// The filter form and the table shared by the review queue and the sessions list: status and
// decision (the sessions list only: every queued case is completed and pending_review), document
// type, date range, IP, the person's name, birth date and document number, and (sessions list) a
// session id or state.
import { useState } from 'preact/hooks';
import { SESSION_STATUSES, VERIFICATION_STATUSES } from '../../../src/domain/vocabulary.ts';
import { DOCUMENT_TYPES } from '../../../src/hosted-flow/document-types.ts';
import { useConsole } from '../console-context.ts';
import type { MessageKey } from '../i18n.ts';
import { Field, formatDate, Link, useLabel } from '../ui.tsx';

export interface SessionRow {
  sessionId: string;
  status: string;
  verificationStatus: string | null;
  decisionReason: string | null;
  /** As the person typed it (else the tenant's pre-registered name); null before either. */
  person?: { name: string; kana: string | null } | null;
  documentType: string | null;
  clientIpAddress: string | null;
  createdAt: string;
  claim: { reviewer: string; expiresAt: string } | null;
}

export interface SessionFilter {
  status?: string;
  verificationStatus?: string;
  documentType?: string;
  from?: string;
  to?: string;
  ip?: string;
  q?: string;
  name?: string;
  birthDate?: string;
  documentNumber?: string;
}

/** Dates from the form (local days) as the API's timestamps: `to` includes the whole day. */
export function filterQuery(filter: SessionFilter): Record<string, string | undefined> {
  const day = (value: string | undefined, end: boolean) =>
    value ? new Date(`${value}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString() : undefined;
  return { ...filter, from: day(filter.from, false), to: day(filter.to, true) };
}

export function SessionFilters({
  withSearch,
  withStatus,
  onApply,
}: {
  withSearch: boolean;
  withStatus: boolean;
  onApply: (filter: SessionFilter) => void;
}) {
  const { t } = useConsole();
  const label = useLabel();
  const [filter, setFilter] = useState<SessionFilter>({});
  const set = (key: keyof SessionFilter) => (event: { currentTarget: { value: string } }) =>
    setFilter({ ...filter, [key]: event.currentTarget.value || undefined });
  const select = (
    key: keyof SessionFilter,
    group: string,
    values: readonly string[],
    labelKey: MessageKey,
  ) => (
    <Field id={`filter-${key}`} label={t(labelKey)}>
      <select id={`filter-${key}`} value={filter[key] ?? ''} onChange={set(key)}>
        <option value="">{t('filter.any')}</option>
        {values.map((value) => (
          <option key={value} value={value}>
            {label(group, value)}
          </option>
        ))}
      </select>
    </Field>
  );
  return (
    <form
      class="filters"
      aria-label={t('filter.label')}
      onSubmit={(event) => {
        event.preventDefault();
        onApply(filter);
      }}
    >
      <Field id="filter-name" label={t('filter.name')}>
        <input id="filter-name" type="search" value={filter.name ?? ''} onInput={set('name')} />
      </Field>
      <Field id="filter-birthDate" label={t('filter.birthDate')}>
        <input id="filter-birthDate" type="date" value={filter.birthDate ?? ''} onInput={set('birthDate')} />
      </Field>
      <Field id="filter-documentNumber" label={t('filter.documentNumber')}>
        <input
          id="filter-documentNumber"
          type="search"
          autoComplete="off"
          value={filter.documentNumber ?? ''}
          onInput={set('documentNumber')}
        />
      </Field>
      {withStatus ? select('status', 'sessionStatus', SESSION_STATUSES, 'filter.status') : null}
      {withStatus
        ? select('verificationStatus', 'verificationStatus', VERIFICATION_STATUSES, 'filter.decision')
        : null}
      {select('documentType', 'documentType', DOCUMENT_TYPES, 'filter.documentType')}
      <Field id="filter-from" label={t('filter.from')}>
        <input id="filter-from" type="date" value={filter.from ?? ''} onInput={set('from')} />
      </Field>
      <Field id="filter-to" label={t('filter.to')}>
        <input id="filter-to" type="date" value={filter.to ?? ''} onInput={set('to')} />
      </Field>
      <Field id="filter-ip" label={t('filter.ip')}>
        <input id="filter-ip" type="text" inputMode="decimal" value={filter.ip ?? ''} onInput={set('ip')} />
      </Field>
      {withSearch ? (
        <Field id="filter-q" label={t('filter.search')}>
          <input id="filter-q" type="search" value={filter.q ?? ''} onInput={set('q')} />
        </Field>
      ) : null}
      <button type="submit">{t('filter.apply')}</button>
    </form>
  );
}

export function SessionTable({ tenantId, sessions }: { tenantId: string; sessions: SessionRow[] }) {
  const { t, language } = useConsole();
  const label = useLabel();
  if (sessions.length === 0) return <p role="status">{t('sessions.empty')}</p>;
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">{t('sessions.createdAt')}</th>
            <th scope="col">{t('sessions.sessionId')}</th>
            <th scope="col">{t('sessions.person')}</th>
            <th scope="col">{t('filter.status')}</th>
            <th scope="col">{t('filter.decision')}</th>
            <th scope="col">{t('sessions.reason')}</th>
            <th scope="col">{t('filter.documentType')}</th>
            <th scope="col">{t('filter.ip')}</th>
            <th scope="col">{t('sessions.claim')}</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.sessionId}>
              <td>{formatDate(s.createdAt, language)}</td>
              <td>
                <Link href={`/console/tenants/${tenantId}/sessions/${encodeURIComponent(s.sessionId)}`}>
                  <code>{s.sessionId}</code>
                </Link>
              </td>
              <td>
                {s.person ? (
                  <>
                    {s.person.name}
                    {s.person.kana ? <small class="kana"> ({s.person.kana})</small> : null}
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td>{label('sessionStatus', s.status)}</td>
              <td>
                <span class={`badge ${s.verificationStatus ?? ''}`}>
                  {label('verificationStatus', s.verificationStatus)}
                </span>
              </td>
              <td>{label('reason', s.decisionReason)}</td>
              <td>{label('documentType', s.documentType)}</td>
              <td>{s.clientIpAddress ?? '—'}</td>
              <td>{s.claim ? s.claim.reviewer : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
