// The tenant's blacklist (docs/console-api.md): entries with their conditions, created, edited and
// deleted here; the server checks that an entry has at least one condition.
import { useState } from 'preact/hooks';
import { ConsoleApiError } from '../console-api.ts';
import { useConsole } from '../console-context.ts';
import type { MessageKey } from '../i18n.ts';
import { describedBy, ErrorText, Field, useAction, useLabel, useLoad } from '../ui.tsx';

interface Entry {
  entryId: string;
  label: string;
  matchMode: 'exact' | 'fuzzy';
  action: 'reject' | 'review';
  lastName?: string | null;
  firstName?: string | null;
  birthDate?: string | null;
  documentNumber?: string | null;
  faceFromSessionId?: string | null;
}

const CONDITIONS = ['lastName', 'firstName', 'birthDate', 'documentNumber', 'faceFromSessionId'] as const;
type Draft = Omit<Entry, 'entryId'>;
const EMPTY: Draft = { label: '', matchMode: 'exact', action: 'reject' };

function EntryForm({
  initial,
  onSave,
  onCancel,
}: {
  initial: Draft;
  onSave: (draft: Draft) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useConsole();
  const label = useLabel();
  const [draft, setDraft] = useState<Draft>(initial);
  const [error, setError] = useState<unknown>(null);
  const fieldError = (field: string) => (error instanceof ConsoleApiError ? error.fieldMessage(field) : null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    // Empty conditions are left out: the API takes only the ones that apply.
    const body: Draft = { label: draft.label, matchMode: draft.matchMode, action: draft.action };
    for (const key of CONDITIONS) if (draft[key]) body[key] = draft[key];
    try {
      await onSave(body);
      setDraft(initial);
    } catch (failure) {
      setError(failure);
    }
  };
  const text = (key: 'label' | (typeof CONDITIONS)[number], type: 'text' | 'date' = 'text') => {
    const id = `blacklist-${key}`;
    return (
      <Field id={id} label={t(`blacklist.${key}` as MessageKey)} error={fieldError(key)}>
        <input
          id={id}
          type={type as 'text'}
          value={draft[key] ?? ''}
          required={key === 'label'}
          onInput={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })}
          {...describedBy(id, fieldError(key))}
        />
      </Field>
    );
  };
  return (
    <form class="blacklist-form" onSubmit={submit} noValidate>
      {text('label')}
      <Field id="blacklist-matchMode" label={t('blacklist.matchMode')}>
        <select
          id="blacklist-matchMode"
          value={draft.matchMode}
          onChange={(e) => setDraft({ ...draft, matchMode: e.currentTarget.value as Entry['matchMode'] })}
        >
          <option value="exact">{label('matchMode', 'exact')}</option>
          <option value="fuzzy">{label('matchMode', 'fuzzy')}</option>
        </select>
      </Field>
      <Field id="blacklist-action" label={t('blacklist.action')}>
        <select
          id="blacklist-action"
          value={draft.action}
          onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value as Entry['action'] })}
        >
          <option value="reject">{label('blacklistAction', 'reject')}</option>
          <option value="review">{label('blacklistAction', 'review')}</option>
        </select>
      </Field>
      {text('lastName')}
      {text('firstName')}
      {text('birthDate', 'date')}
      {text('documentNumber')}
      {text('faceFromSessionId')}
      <ErrorText error={error} />
      <div class="buttons">
        <button type="submit">{t('common.save')}</button>
        {onCancel ? (
          <button type="button" class="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

export function BlacklistPage({ tenantId }: { tenantId: string }) {
  const { api, t } = useConsole();
  const label = useLabel();
  const path = api.tenantPath(tenantId, 'blacklist');
  const { data, error, reload } = useLoad(() => api.get<{ entries: Entry[] }>(path), [path]);
  const [editing, setEditing] = useState<string | null>(null);
  const { run, error: actionError } = useAction(reload);

  const remove = (entry: Entry) => {
    if (window.confirm(t('blacklist.confirmDelete', { name: entry.label })))
      run(() => api.delete(`${path}/${encodeURIComponent(entry.entryId)}`));
  };

  return (
    <section>
      <h1>{t('blacklist.title')}</h1>
      <details open={data?.entries.length === 0}>
        <summary>{t('blacklist.add')}</summary>
        <EntryForm
          initial={EMPTY}
          onSave={async (draft) => {
            await api.post(path, draft);
            await reload();
          }}
        />
      </details>
      <ErrorText error={error ?? actionError} />
      {data?.entries.length === 0 ? <p role="status">{t('blacklist.empty')}</p> : null}
      <ul class="plain entries">
        {data?.entries.map((entry) =>
          editing === entry.entryId ? (
            <li key={entry.entryId}>
              <EntryForm
                initial={entry}
                onCancel={() => setEditing(null)}
                onSave={async (draft) => {
                  await api.put(`${path}/${encodeURIComponent(entry.entryId)}`, draft);
                  setEditing(null);
                  await reload();
                }}
              />
            </li>
          ) : (
            <li key={entry.entryId}>
              <strong>{entry.label}</strong> · {label('matchMode', entry.matchMode)} ·{' '}
              {label('blacklistAction', entry.action)} —{' '}
              {CONDITIONS.filter((key) => entry[key])
                .map((key) => `${t(`blacklist.${key}` as MessageKey)}: ${entry[key]}`)
                .join(', ')}{' '}
              <button type="button" class="secondary" onClick={() => setEditing(entry.entryId)}>
                {t('common.edit')}
              </button>
              <button type="button" class="danger" onClick={() => remove(entry)}>
                {t('common.delete')}
              </button>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
