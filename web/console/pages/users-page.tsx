// Console users (docs/console-api.md): the operator sees and creates users of any tenant (and
// operators); a tenant admin those of their own tenant. A new user gets a one-time link to set a
// password, shown here to pass on.
import { useState } from 'preact/hooks';
import type { Role } from '../console-api.ts';
import { useConsole } from '../console-context.ts';
import { ErrorText, Field, formatDate, ShownOnce, useAction, useLabel, useLoad } from '../ui.tsx';

interface UserRow {
  id: string;
  email: string;
  role: Role;
  tenantId: string | null;
  createdAt: string;
  lastLoginAt: string | null;
  disabled: boolean;
}

export function UsersPage({ tenantId }: { tenantId?: string }) {
  const { api, t, user, language } = useConsole();
  const label = useLabel();
  const isOperator = user?.role === 'operator';
  const roles: Role[] = isOperator ? ['operator', 'tenant_admin', 'reviewer'] : ['tenant_admin', 'reviewer'];
  const { data, error, reload } = useLoad(
    () => api.get<{ users: UserRow[] }>('users', { tenantId }),
    [tenantId],
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('reviewer');
  const [newTenantId, setNewTenantId] = useState(tenantId ?? '');
  const [link, setLink] = useState<string | null>(null);
  const { run: act, error: actionError } = useAction(reload);

  const create = (event: Event) => {
    event.preventDefault();
    return act(async () => {
      const body = role === 'operator' ? { email, role } : { email, role, tenantId: tenantId ?? newTenantId };
      const answer = await api.post<{ setPasswordUrl: string }>('users', body);
      setLink(answer.setPasswordUrl);
      setEmail('');
    });
  };

  return (
    <section>
      <h1>{t('users.title')}</h1>
      <form class="inline" onSubmit={create}>
        <Field id="user-email" label={t('users.email')}>
          <input
            id="user-email"
            type="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <Field id="user-role" label={t('users.role')}>
          <select id="user-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            {roles.map((value) => (
              <option key={value} value={value}>
                {label('role', value)}
              </option>
            ))}
          </select>
        </Field>
        {isOperator && !tenantId && role !== 'operator' ? (
          <Field id="user-tenant" label={t('users.tenant')}>
            <input
              id="user-tenant"
              required
              value={newTenantId}
              onInput={(e) => setNewTenantId(e.currentTarget.value)}
            />
          </Field>
        ) : null}
        <button type="submit">{t('users.create')}</button>
      </form>
      {link ? <ShownOnce label={t('users.link')} value={link} /> : null}
      <ErrorText error={error ?? actionError} />
      {data ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('users.email')}</th>
                <th scope="col">{t('users.role')}</th>
                {isOperator ? <th scope="col">{t('users.tenant')}</th> : null}
                <th scope="col">{t('common.createdAt')}</th>
                <th scope="col">{t('users.lastLogin')}</th>
                <th scope="col">{t('common.state')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((row) => (
                <tr key={row.id}>
                  <td>{row.email}</td>
                  <td>{label('role', row.role)}</td>
                  {isOperator ? <td>{row.tenantId ?? '—'}</td> : null}
                  <td>{formatDate(row.createdAt, language)}</td>
                  <td>{formatDate(row.lastLoginAt, language)}</td>
                  <td>{row.disabled ? t('common.disabled') : t('common.active')}</td>
                  <td>
                    {row.disabled || row.id === user?.id ? null : (
                      <button
                        type="button"
                        class="danger"
                        aria-label={t('users.disableNamed', { name: row.email })}
                        onClick={() => {
                          if (window.confirm(t('users.confirmDisable', { name: row.email })))
                            act(() => api.post(`users/${encodeURIComponent(row.id)}/disable`));
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
