// The tenant's API keys (interface §5 item 2): issue one (the key is shown once),
// its label, when it was last used, and disable.
import { useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { ErrorText, Field, formatDate, ShownOnce, useAction, useLoad } from '../ui.tsx';

interface ApiKey {
  keyId: string;
  label: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  disabledAt: string | null;
}

export function ApiKeysPage({ tenantId }: { tenantId: string }) {
  const { api, t, language } = useConsole();
  const path = api.tenantPath(tenantId, 'api-keys');
  const { data, error, reload } = useLoad(() => api.get<{ keys: ApiKey[] }>(path), [path]);
  const [label, setLabel] = useState('');
  const [issued, setIssued] = useState<string | null>(null);
  const { run: act, error: actionError } = useAction(reload);

  const issue = (event: Event) => {
    event.preventDefault();
    return act(async () => {
      const answer = await api.post<{ keyId: string; apiKey: string }>(path, label ? { label } : {});
      setIssued(answer.apiKey);
      setLabel('');
    });
  };

  return (
    <section>
      <h1>{t('apiKeys.title')}</h1>
      <form class="inline" onSubmit={issue}>
        <Field id="api-key-label" label={t('apiKeys.label')}>
          <input
            id="api-key-label"
            maxLength={100}
            value={label}
            onInput={(e) => setLabel(e.currentTarget.value)}
          />
        </Field>
        <button type="submit">{t('apiKeys.issue')}</button>
      </form>
      {issued ? <ShownOnce label={t('apiKeys.newKey')} value={issued} /> : null}
      <ErrorText error={error ?? actionError} />
      {data ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('apiKeys.label')}</th>
                <th scope="col">{t('apiKeys.prefix')}</th>
                <th scope="col">{t('common.createdAt')}</th>
                <th scope="col">{t('apiKeys.lastUsed')}</th>
                <th scope="col">{t('common.state')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.keys.map((key) => (
                <tr key={key.keyId}>
                  <td>{key.label ?? '—'}</td>
                  <td>
                    <code>{key.prefix.endsWith('…') ? key.prefix : `${key.prefix}…`}</code>
                  </td>
                  <td>{formatDate(key.createdAt, language)}</td>
                  <td>{formatDate(key.lastUsedAt, language)}</td>
                  <td>{key.disabledAt ? t('common.disabled') : t('common.active')}</td>
                  <td>
                    {key.disabledAt ? null : (
                      <button
                        type="button"
                        class="danger"
                        aria-label={t('apiKeys.disableNamed', { name: key.label ?? key.prefix })}
                        onClick={() => {
                          if (window.confirm(t('apiKeys.confirmDisable')))
                            act(() => api.post(`${path}/${encodeURIComponent(key.keyId)}/disable`));
                        }}
                      >
                        {t('common.disable')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
