// One case, led by what a reviewer decides on: why it is here in words, the document's face and the
// selfie side by side at one size, the fields that differ — with the claim and the decision form
// beside them. Then the document pictures, the liveness frames (folded), the reviews, the webhook
// events, and the raw check objects folded at the bottom. After a decision, "next case" opens the
// oldest case of the queue nobody else holds. Operators read it without any action.
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { ErrorText, formatDate, useAction, useLabel, useLoad } from '../ui.tsx';
import { CheckResults, ComparisonTable, ValueTable } from './case-checks.tsx';
import { FacePair, type FacePictures, FindingList, useFindings } from './case-findings.tsx';
import { CaseImages, listImages } from './case-images.tsx';
import { type Review, ReviewForm, ReviewHistory } from './review-form.tsx';

export interface Claim {
  reviewer: string;
  claimedAt: string;
  expiresAt: string;
}

interface AutomaticDecision {
  status?: string;
  reason?: string;
  metadata?: unknown;
  thresholds?: unknown;
}

interface CaseDetail {
  sessionId: string;
  status: string;
  documentType?: string | null;
  createdAt: string;
  state?: string | null;
  images?: unknown;
  faces?: FacePictures;
  comparison?: unknown;
  liveness?: unknown;
  verification?: { status?: string; results?: unknown } | null;
  /** The pipeline's decision (reason code, metadata, thresholds); `decision` in older answers. */
  automaticDecision?: AutomaticDecision | null;
  decision?: AutomaticDecision | null;
  claim?: Claim | null;
  reviews?: Review[];
  webhookEvents?: {
    eventId: string;
    event: string;
    state?: string;
    status?: string;
    attempts: number;
    createdAt: string;
  }[];
}

interface QueueItem {
  sessionId: string;
  claim: Claim | null;
}

/** The oldest queued case other than this one that nobody else holds; null when there is none. */
function useNextCase(tenantId: string, sessionId: string) {
  const { api, user, navigate } = useConsole();
  const [isEmpty, setEmpty] = useState(false);
  const { run, error } = useAction();
  const open = () =>
    run(async () => {
      const { sessions } = await api.get<{ sessions: QueueItem[] }>(
        api.tenantPath(tenantId, 'review-queue'),
        {
          limit: 50,
        },
      );
      const next = sessions.find(
        (s) => s.sessionId !== sessionId && (s.claim === null || s.claim.reviewer === user?.email),
      );
      if (!next) return setEmpty(true);
      navigate(`/console/tenants/${tenantId}/sessions/${encodeURIComponent(next.sessionId)}`);
    });
  return { open, isEmpty, error };
}

const POLL_INTERVAL_MS = 2_000;
const POLL_LIMIT = 30;

export function CasePage({ tenantId, sessionId }: { tenantId: string; sessionId: string }) {
  const { api, t, user, language } = useConsole();
  const label = useLabel();
  const base = api.tenantPath(tenantId, `sessions/${encodeURIComponent(sessionId)}`);
  const { data, error, reload } = useLoad(() => api.get<{ session: CaseDetail }>(base), [base]);
  const session = data?.session;
  const [decided, setDecided] = useState<string | null>(null);
  const next = useNextCase(tenantId, sessionId);
  const { run: act, error: actionError } = useAction(reload);
  // A webhook still pending (the one "Send decision" just queued, or a retry) is read again every
  // few seconds, so its delivery shows without a reload; a minute at most per page view.
  const isDelivering = session?.webhookEvents?.some((e) => (e.state ?? e.status) === 'pending') ?? false;
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!isDelivering || polls >= POLL_LIMIT) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      reload();
    }, POLL_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [isDelivering, polls, reload]);
  const automatic = session?.automaticDecision ?? session?.decision ?? null;
  const findings = useFindings({
    results: session?.verification?.results,
    thresholds: automatic?.thresholds,
    liveness: session?.liveness,
    comparison: session?.comparison,
  });

  if (error) return <ErrorText error={error} />;
  if (!session || session.sessionId !== sessionId) return <p class="boot">{t('common.loading')}</p>;

  const verificationStatus = session.verification?.status ?? automatic?.status ?? null;
  const isReviewer = user?.role === 'reviewer';
  const isOperator = user?.role === 'operator';
  const claim = session.claim ?? null;
  const claimIsMine = claim !== null && claim.reviewer === user?.email;
  const isPendingReview = verificationStatus === 'pending_review';
  const automaticReason = automatic?.reason;
  const results = session.verification?.results as Record<string, { similarity?: unknown }> | undefined;
  const similarity = typeof results?.faceMatch?.similarity === 'number' ? results.faceMatch.similarity : null;
  const images = listImages(session.images);
  const frames = images.filter((image) => image.name.startsWith('frame-'));
  const pictures = images.filter((image) => !image.name.startsWith('frame-'));

  const claimBanner =
    isReviewer && isPendingReview ? (
      <div class={`banner${claim && !claimIsMine ? ' warn' : ''}`} role="status">
        {claim === null ? (
          <>
            <span>{t('case.unclaimed')}</span>
            <button type="button" onClick={() => act(() => api.post(`${base}/claim`))}>
              {t('case.claim')}
            </button>
          </>
        ) : claimIsMine ? (
          <>
            <span>{t('case.claimedByYou', { until: formatDate(claim.expiresAt, language) })}</span>
            <button type="button" class="secondary" onClick={() => act(() => api.post(`${base}/claim`))}>
              {t('case.extendClaim')}
            </button>
            <button type="button" class="secondary" onClick={() => act(() => api.delete(`${base}/claim`))}>
              {t('case.releaseClaim')}
            </button>
          </>
        ) : (
          <span>
            {t('case.claimedByOther', {
              reviewer: claim.reviewer,
              until: formatDate(claim.expiresAt, language),
            })}
          </span>
        )}
      </div>
    ) : null;

  const nextCase = isReviewer ? (
    <div class="next-case">
      <button type="button" onClick={next.open}>
        {t('case.nextCase')}
      </button>
      {next.isEmpty ? <p role="status">{t('case.queueEmpty')}</p> : null}
      <ErrorText error={next.error} />
    </div>
  ) : null;

  return (
    <section class="case">
      <h1>
        {t('case.title')} <code>{session.sessionId}</code>
      </h1>
      <p class="summary">
        <span class={`badge ${verificationStatus ?? ''}`}>
          {label('verificationStatus', verificationStatus)}
        </span>{' '}
        · {label('sessionStatus', session.status)} · {label('documentType', session.documentType)} ·{' '}
        {formatDate(session.createdAt, language)}
        {session.state ? (
          <>
            {' '}
            · {t('case.state')} <code>{session.state}</code>
          </>
        ) : null}
      </p>
      {isOperator ? (
        <p class="banner" role="note">
          {t('case.readOnly')}
        </p>
      ) : null}

      <div class="case-top">
        <div class="case-main">
          <h2>{t('case.why')}</h2>
          <p class="reason">
            {t('case.automaticReason')}: <strong>{label('reason', automaticReason)}</strong>
          </p>
          <FindingList findings={findings} />

          <h2>{t('case.faces')}</h2>
          <FacePair faces={session.faces} similarity={similarity} />

          <h2>{t('case.comparison')}</h2>
          <ComparisonTable comparison={session.comparison} />
        </div>

        <aside class="case-side" aria-label={t('case.decisionPanel')}>
          {claimBanner}
          <ErrorText error={actionError} />
          {decided ? (
            <p class="banner" role="status">
              {t('case.decided', { decision: label('verificationStatus', decided) })}
            </p>
          ) : null}
          {isReviewer && isPendingReview && claimIsMine ? (
            <ReviewForm
              base={base}
              onDone={(decision) => {
                if (decision) setDecided(decision);
                return reload();
              }}
            />
          ) : (
            <p class="decided-note">
              {t('case.currentDecision')}{' '}
              <span class={`badge ${verificationStatus ?? ''}`}>
                {label('verificationStatus', verificationStatus)}
              </span>
            </p>
          )}
          {nextCase}
        </aside>
      </div>

      <h2>{t('case.images')}</h2>
      <div class="case-images">
        <CaseImages images={pictures} />
      </div>
      {frames.length > 0 ? (
        <details class="fold">
          <summary>{t('case.frames', { count: frames.length })}</summary>
          <CaseImages images={frames} />
        </details>
      ) : null}

      <h2>{t('case.reviews')}</h2>
      <ReviewHistory
        reviews={session.reviews ?? []}
        onConfirm={
          isReviewer
            ? (review) => act(() => api.post(api.tenantPath(tenantId, `reviews/${review.id}/confirm`)))
            : null
        }
      />

      <h2>{t('case.webhookEvents')}</h2>
      {session.webhookEvents?.length ? (
        <ul class="plain">
          {session.webhookEvents.map((event) => (
            <li key={event.eventId}>
              <code>{event.event}</code> · {label('deliveryStatus', event.state ?? event.status)} ·{' '}
              {t('webhooks.attemptCount', { count: event.attempts })} ·{' '}
              {formatDate(event.createdAt, language)}
            </li>
          ))}
        </ul>
      ) : (
        <p>—</p>
      )}

      <details class="fold raw">
        <summary>{t('case.rawChecks')}</summary>
        <CheckResults results={session.verification?.results} />
        <div class="values-row">
          <ValueTable values={automatic?.thresholds} caption={t('case.thresholds')} />
          <ValueTable values={automatic?.metadata} caption={t('case.metadata')} />
        </div>
      </details>
    </section>
  );
}
