// Step 7: review and submit; then the browser goes to the tenant's callbackUrl the server returns
// (interface §4.1).
import { useState } from 'preact/hooks';
import { FlowApiError } from '../flow-api.ts';
import type { StepName } from '../flow-app.tsx';
import type { MessageKey } from '../i18n.ts';
import { leaveFlow } from '../leave-guard.ts';
import { errorText } from './error-text.ts';
import type { StepProps } from './step-props.ts';

export function ReviewStep({
  api,
  t,
  language,
  state,
  onApiError,
  onEdit,
  onMissing,
}: StepProps & { onEdit(step: StepName): void; onMissing(): void }) {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const data = state.personalData;
  const liveness = state.steps.liveness.status;

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const { redirectTo } = await api.submit();
      setDone(redirectTo);
      leaveFlow(redirectTo);
    } catch (e) {
      onApiError(e);
      setBusy(false);
      if (e instanceof FlowApiError && e.status === 409 && e.details.length) {
        setError(t('review.missing'));
        onMissing();
      } else setError(errorText(e, language, t));
    }
  };

  if (done) {
    return (
      <section class="card" role="status">
        <h1>{t('done.title')}</h1>
        <p>{t('done.body')}</p>
        <a class="primary button-link" href={done}>
          {t('done.link')}
        </a>
      </section>
    );
  }

  const row = (label: string, value: preact.ComponentChildren = '', edit?: StepName) => (
    <div class="review-row">
      <dt>{label}</dt>
      <dd>
        <span>{value}</span>
        {edit && (
          <button type="button" class="link-button" onClick={() => onEdit(edit)}>
            {t('review.edit')}
            <span class="visually-hidden"> {label}</span>
          </button>
        )}
      </dd>
    </div>
  );

  // The stored photos, as the server keeps them (only this session's cookie can load them).
  const sideLabel = { front: 'review.front', back: 'review.back', tilted: 'review.tilted' } as const;
  const thumbnail = (side: 'front' | 'back' | 'tilted') => (
    <img
      class="thumb"
      src={`/verify/api/documents/${side}/image`}
      alt={t('review.thumbnail', { side: t(sideLabel[side]) })}
    />
  );

  return (
    <section class="card">
      <h1>{t('review.title')}</h1>
      <dl class="review">
        {state.documentType && row(t('review.document'), t(`docType.${state.documentType}`), 'documentType')}
        {state.steps.front && row(t('review.front'), thumbnail('front'), 'front')}
        {state.steps.back && row(t('review.back'), thumbnail('back'), 'back')}
        {state.steps.tilted && row(t('review.tilted'), thumbnail('tilted'), 'tilted')}
        {row(t('review.face'), t(`review.liveness.${liveness}` as MessageKey))}
      </dl>
      {data && (
        <>
          <h2>{t('review.details')}</h2>
          <dl class="review">
            {row(t('personal.lastName'), data.lastName, 'personal')}
            {row(t('personal.firstName'), data.firstName)}
            {row(t('personal.lastNameKana'), data.lastNameKana)}
            {row(t('personal.firstNameKana'), data.firstNameKana)}
            {row(t('personal.birthDate'), data.birthDate)}
            {row(t('personal.address'), data.address)}
          </dl>
        </>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="button" class="primary" onClick={submit} disabled={busy}>
        {busy ? t('review.submitting') : t('review.submit')}
      </button>
    </section>
  );
}
