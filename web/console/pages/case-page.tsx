// One case (issue 8 item 2), also the sessions list's detail view: claim banner, pictures, the
// comparison, every check result with thresholds, the automatic reason, the review history, the
// webhook events, and — for a reviewer holding the claim — approve/reject with a mandatory reason.
import { useConsole } from '../console-context.ts';
import { ErrorText, formatDate, useAction, useLabel, useLoad } from '../ui.tsx';
import { CheckResults, ComparisonTable, ValueTable } from './case-checks.tsx';
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
  images?: unknown;
  comparison?: unknown;
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

export function CasePage({ tenantId, sessionId }: { tenantId: string; sessionId: string }) {
  const { api, t, user, language } = useConsole();
  const label = useLabel();
  const base = api.tenantPath(tenantId, `sessions/${encodeURIComponent(sessionId)}`);
  const { data, error, reload } = useLoad(() => api.get<{ session: CaseDetail }>(base), [base]);
  const session = data?.session;

  const { run: act, error: actionError } = useAction(reload);

  if (error) return <ErrorText error={error} />;
  if (!session) return <p class="boot">{t('common.loading')}</p>;

  const automatic = session.automaticDecision ?? session.decision ?? null;
  const verificationStatus = session.verification?.status ?? automatic?.status ?? null;
  const isReviewer = user?.role === 'reviewer';
  const claim = session.claim ?? null;
  const claimIsMine = claim !== null && claim.reviewer === user?.email;
  const isPendingReview = verificationStatus === 'pending_review';
  const automaticReason = automatic?.reason;

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
      </p>

      {isReviewer && isPendingReview ? (
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
      ) : null}
      <ErrorText error={actionError} />

      <h2>{t('case.automaticReason')}</h2>
      <p class="reason">
        <strong>{label('reason', automaticReason)}</strong>
        {automaticReason && label('reason', automaticReason) !== automaticReason ? (
          <code> ({automaticReason})</code>
        ) : null}
      </p>

      <h2>{t('case.images')}</h2>
      <CaseImages images={listImages(session.images)} />

      <h2>{t('case.comparison')}</h2>
      <ComparisonTable comparison={session.comparison} />

      <h2>{t('case.checks')}</h2>
      <CheckResults results={session.verification?.results} />
      <div class="values-row">
        <ValueTable values={automatic?.thresholds} caption={t('case.thresholds')} />
        <ValueTable values={automatic?.metadata} caption={t('case.metadata')} />
      </div>

      <h2>{t('case.reviews')}</h2>
      <ReviewHistory
        reviews={session.reviews ?? []}
        onConfirm={
          isReviewer
            ? (review) => act(() => api.post(api.tenantPath(tenantId, `reviews/${review.id}/confirm`)))
            : null
        }
      />
      {isReviewer && isPendingReview && claimIsMine ? <ReviewForm base={base} onDone={reload} /> : null}

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
    </section>
  );
}
