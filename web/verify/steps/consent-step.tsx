// Step 1: consent to the use of the images and data (interface §1).
import { useState } from 'preact/hooks';
import { errorText } from './error-text.ts';
import type { StepProps } from './step-props.ts';

export function ConsentStep({ api, t, language, onApiError, onDone }: StepProps & { onDone(): void }) {
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!agreed) return;
    setBusy(true);
    setError(null);
    try {
      await api.consent();
      onDone();
    } catch (e) {
      onApiError(e);
      setError(errorText(e, language, t));
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h1>{t('consent.title')}</h1>
      <p>{t('consent.body')}</p>
      <p>{t('consent.items')}</p>
      <label class="check">
        <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.currentTarget.checked)} />
        <span>{t('consent.checkbox')}</span>
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={!agreed || busy}>
        {t('consent.submit')}
      </button>
    </form>
  );
}
