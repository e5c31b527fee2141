// The IC-chip method (docs/ic-chip.md; src/hosted-flow/chip-reader.ts): a browser cannot talk to a
// chip, so this step hands the session to a reader app — a QR code for a phone, a link for an app
// on this device — says which card and why the app asks for the MRZ's numbers, and waits until the
// reader has handed in a reading (state.steps.chip), then goes on to the face check.
import { useEffect, useState } from 'preact/hooks';
import { errorText } from './error-text.ts';
import type { StepProps } from './step-props.ts';

const POLL_MS = 2000;

type Issued = { url: string; deepLink: string; expiresAt: string; qrSvg: string };

export function ChipStep({
  api,
  t,
  language,
  state,
  onApiError,
  onDone,
  onUsePhotos,
}: StepProps & { onDone(): void; onUsePhotos?: () => void }) {
  const [issued, setIssued] = useState<Issued | null>(null);
  const [read, setRead] = useState(state.steps.chip === true);
  const [error, setError] = useState<string | null>(null);

  const issue = async () => {
    setError(null);
    try {
      setIssued(await api.chipReader());
    } catch (e) {
      onApiError(e);
      setError(errorText(e, language, t));
    }
  };

  useEffect(() => {
    if (!read) issue();
  }, []);

  useEffect(() => {
    if (!issued || read) return;
    const timer = setInterval(async () => {
      try {
        const next = await api.state();
        if (next.steps.chip) setRead(true);
      } catch {
        // A missed poll is tried again at the next tick.
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [issued, read]);

  const minutes = issued ? Math.max(1, Math.round((Date.parse(issued.expiresAt) - Date.now()) / 60_000)) : 0;

  return (
    <section class="card chip">
      <h1>{t('chip.title')}</h1>
      {read ? (
        <>
          <p class="ok" role="status">
            {t('chip.done')}
          </p>
          <div class="actions">
            <button type="button" class="primary" onClick={onDone}>
              {t('chip.continue')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{t('chip.which')}</p>
          <p>{t('chip.mrzWhy')}</p>
          <p class="hint">{t('chip.notStored')}</p>
          {issued && (
            <>
              <img
                class="qr"
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(issued.qrSvg)}`}
                alt={t('chip.qrLabel')}
              />
              <p class="hint">{t('chip.scan')}</p>
              <p class="handoff-link">
                <a href={issued.deepLink}>{t('chip.openApp')}</a>
              </p>
              <p class="hint">{t('chip.validity', { minutes })}</p>
              <p class="status" aria-live="polite">
                {t('chip.waiting')}
              </p>
            </>
          )}
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <div class="actions">
            {error && (
              <button type="button" class="primary" onClick={issue}>
                {t('chip.newCode')}
              </button>
            )}
            {onUsePhotos && (
              <button type="button" class="secondary" onClick={onUsePhotos}>
                {t('chip.usePhotos')}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
