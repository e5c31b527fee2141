// Continue on a phone: the one-time QR code and short link (src/hosted-flow/phone-handoff.ts). This
// browser then follows the progress and, once the phone has submitted, goes to the tenant's callback.
import { useEffect, useState } from 'preact/hooks';
import { leaveFlow } from '../leave-guard.ts';
import { errorText } from './error-text.ts';
import type { StepProps } from './step-props.ts';

const POLL_MS = 2000;

type Issued = { url: string; expiresAt: string; qrSvg: string };

export function HandoffPanel({ api, t, language, onApiError, onClose }: StepProps & { onClose(): void }) {
  const [issued, setIssued] = useState<Issued | null>(null);
  const [status, setStatus] = useState<'waiting' | 'expired' | 'continued' | 'submitted'>('waiting');
  const [error, setError] = useState<string | null>(null);

  const issue = async () => {
    setError(null);
    try {
      setIssued(await api.handoff());
      setStatus('waiting');
    } catch (e) {
      onApiError(e);
      setError(errorText(e, language, t));
    }
  };

  useEffect(() => {
    issue();
  }, []);

  useEffect(() => {
    if (!issued || status === 'submitted') return;
    const timer = setInterval(async () => {
      try {
        const next = await api.handoffStatus();
        setStatus(next.status);
        if (next.status === 'submitted' && next.redirectTo) leaveFlow(next.redirectTo);
      } catch {
        // A missed poll is tried again at the next tick.
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [issued, status]);

  const minutes = issued ? Math.max(1, Math.round((Date.parse(issued.expiresAt) - Date.now()) / 60_000)) : 0;

  return (
    <section class="card handoff">
      <h1>{t('handoff.title')}</h1>
      {status === 'continued' || status === 'submitted' ? (
        <p class="ok" role="status">
          {t(status === 'submitted' ? 'handoff.submitted' : 'handoff.continued')}
        </p>
      ) : (
        <>
          <p>{t('handoff.body')}</p>
          {issued && status === 'waiting' && (
            <>
              <img
                class="qr"
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(issued.qrSvg)}`}
                alt={t('handoff.qrLabel')}
              />
              <p class="hint">{t('handoff.linkLabel')}</p>
              <p class="handoff-link">
                <a href={issued.url}>{issued.url}</a>
              </p>
              <p class="hint">{t('handoff.validity', { minutes })}</p>
              <p class="status" aria-live="polite">
                {t('handoff.waiting')}
              </p>
            </>
          )}
          {status === 'expired' && (
            <p class="error" role="alert">
              {t('handoff.expired')}
            </p>
          )}
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <div class="actions">
            {status === 'expired' && (
              <button type="button" class="primary" onClick={issue}>
                {t('handoff.newCode')}
              </button>
            )}
            <button type="button" class="secondary" onClick={onClose}>
              {t('handoff.stayHere')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
