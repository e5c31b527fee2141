// The one-time link from `mimoto user create` (/console/set-password?token=…): choose a password
// (12–200 characters, checked here for a quick answer and again by the server), then sign in.
import { useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { describedBy, ErrorText, Field, Link } from '../ui.tsx';

export function SetPasswordPage() {
  const { api, t } = useConsole();
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (password.length < 12 || password.length > 200) return setFieldError(t('password.length'));
    if (password !== repeat) return setFieldError(t('password.mismatch'));
    setFieldError(null);
    try {
      await api.setPassword(token, password);
      setDone(true);
    } catch (failure) {
      setError(failure);
    }
  };

  if (done)
    return (
      <section class="narrow">
        <h1>{t('password.title')}</h1>
        <p role="status">{t('password.done')}</p>
        <Link href="/console/login">{t('password.toLogin')}</Link>
      </section>
    );
  return (
    <section class="narrow">
      <h1>{t('password.title')}</h1>
      {token ? null : <p role="alert">{t('error.PasswordLinkInvalid')}</p>}
      <form onSubmit={submit}>
        <Field id="new-password" label={t('password.new')} hint={t('password.length')} error={fieldError}>
          <input
            id="new-password"
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            {...describedBy('new-password', fieldError)}
          />
        </Field>
        <Field id="repeat-password" label={t('password.repeat')}>
          <input
            id="repeat-password"
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onInput={(e) => setRepeat(e.currentTarget.value)}
          />
        </Field>
        <ErrorText error={error} />
        <button type="submit" disabled={!token}>
          {t('password.submit')}
        </button>
      </form>
    </section>
  );
}
