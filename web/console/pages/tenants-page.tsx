// The operator's tenants: create one (its webhook secret is shown once),
// keep each tenant's callback URL allow list, and open its sessions read-only.
import { useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { ErrorText, Field, formatDate, Link, ShownOnce, useAction, useLoad } from '../ui.tsx';

interface Tenant {
  tenantId: string;
  name: string;
  callbackUrlPrefixes: string[];
  createdAt: string;
}

function AllowList({ tenant, onChange }: { tenant: Tenant; onChange: () => Promise<void> }) {
  const { api, t } = useConsole();
  const [prefix, setPrefix] = useState('');
  const { run, error } = useAction(onChange);
  const path = api.tenantPath(tenant.tenantId, 'callback-url-prefixes');
  const act = async (action: () => Promise<unknown>) => {
    if (await run(action)) setPrefix('');
  };
  const id = `prefix-${tenant.tenantId}`;
  return (
    <div class="allow-list">
      <ul class="plain">
        {tenant.callbackUrlPrefixes.map((p) => (
          <li key={p}>
            <code>{p}</code>{' '}
            <button
              type="button"
              class="danger"
              aria-label={t('tenants.removePrefixNamed', { prefix: p })}
              onClick={() => act(() => api.delete(path, { prefix: p }))}
            >
              {t('common.remove')}
            </button>
          </li>
        ))}
      </ul>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          act(() => api.post(path, { prefix }));
        }}
      >
        <Field id={id} label={t('tenants.addPrefix')}>
          <input
            id={id}
            type="url"
            required
            value={prefix}
            onInput={(e) => setPrefix(e.currentTarget.value)}
          />
        </Field>
        <button type="submit">{t('common.add')}</button>
      </form>
      <ErrorText error={error} />
    </div>
  );
}

export function TenantsPage() {
  const { api, t, language } = useConsole();
  const { data, error, reload } = useLoad(() => api.get<{ tenants: Tenant[] }>('tenants'), []);
  const [name, setName] = useState('');
  const [prefixes, setPrefixes] = useState('');
  const [created, setCreated] = useState<{ tenantId: string; webhookSecret: string } | null>(null);
  const [createError, setCreateError] = useState<unknown>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setCreateError(null);
    try {
      const callbackUrlPrefixes = prefixes
        .split(/\s+/)
        .map((p) => p.trim())
        .filter(Boolean);
      setCreated(await api.post('tenants', { name, callbackUrlPrefixes }));
      setName('');
      setPrefixes('');
    } catch (failure) {
      setCreateError(failure);
    }
    await reload();
  };

  return (
    <section>
      <h1>{t('tenants.title')}</h1>
      <form class="stacked" onSubmit={create}>
        <h2>{t('tenants.create')}</h2>
        <Field id="tenant-name" label={t('tenants.name')}>
          <input id="tenant-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field id="tenant-prefixes" label={t('tenants.prefixes')} hint={t('tenants.prefixesHint')}>
          <textarea
            id="tenant-prefixes"
            rows={2}
            value={prefixes}
            onInput={(e) => setPrefixes(e.currentTarget.value)}
          />
        </Field>
        <ErrorText error={createError} />
        <button type="submit">{t('tenants.create')}</button>
      </form>
      {created ? (
        <>
          <p role="status">
            {t('tenants.created')} <code>{created.tenantId}</code>
          </p>
          <ShownOnce label={t('secret.new')} value={created.webhookSecret} />
        </>
      ) : null}
      <ErrorText error={error} />
      {data?.tenants.map((tenant) => (
        <article class="tenant" key={tenant.tenantId}>
          <h2>
            {tenant.name} <code class="muted">{tenant.tenantId}</code>
          </h2>
          <p class="muted">
            {formatDate(tenant.createdAt, language)} ·{' '}
            <Link href={`/console/tenants/${tenant.tenantId}/sessions`}>{t('tenants.sessions')}</Link> ·{' '}
            <Link href={`/console/tenants/${tenant.tenantId}/webhooks`}>{t('tenants.webhooks')}</Link>
          </p>
          <h3>{t('tenants.allowList')}</h3>
          <AllowList tenant={tenant} onChange={reload} />
        </article>
      ))}
    </section>
  );
}
