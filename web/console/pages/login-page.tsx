// Sign in with e-mail and password; the server's lockout and rate limit come back
// as their own messages.
import { useState } from 'preact/hooks';
import type { ConsoleUser } from '../console-api.ts';
import { useConsole } from '../console-context.ts';
import { ErrorText, Field } from '../ui.tsx';

export function LoginPage({ onSignedIn }: { onSignedIn: (user: ConsoleUser) => void }) {
  const { api, t } = useConsole();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api.login(email, password));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="narrow">
      <h1>{t('login.title')}</h1>
      <form onSubmit={submit}>
        <Field id="login-email" label={t('login.email')}>
          <input
            id="login-email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <Field id="login-password" label={t('login.password')}>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        <ErrorText error={error} />
        <button type="submit" disabled={busy}>
          {t('login.submit')}
        </button>
      </form>
    </section>
  );
}
