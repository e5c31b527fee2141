// Approve, reject, or ask for a new capture, with a mandatory reason: a preset (docs/console-api.md
// "Preset reasons") fitting the decision plus free text of 1–500 characters; and the review
// history with the second reviewer's confirmation when the tenant requires it for approving an
// automatically rejected case. Asking for a new capture is a rejection with the code
// new_capture_requested, which reaches the tenant as such, so they can send the person a new session.
import { useState } from 'preact/hooks';
import { type ReasonCode, reasonCodesFor } from '../../../src/review/review-reasons.ts';
import { useConsole } from '../console-context.ts';
import type { MessageKey } from '../i18n.ts';
import { describedBy, ErrorText, Field, formatDate, useLabel } from '../ui.tsx';

export interface Review {
  id: string;
  decision: 'approved' | 'rejected';
  reviewedBy: string;
  reviewedAt: string | null;
  createdAt?: string;
  reason: string;
  reasonCode?: string | null;
  status?: string;
  confirmedBy?: string | null;
}

const awaitsConfirmation = (review: Review) => review.status === 'awaiting_confirmation';

export function ReviewHistory({
  reviews,
  onConfirm,
}: {
  reviews: Review[];
  onConfirm: ((review: Review) => void) | null;
}) {
  const { t, user, language } = useConsole();
  const label = useLabel();
  if (reviews.length === 0) return <p>{t('case.noReviews')}</p>;
  return (
    <ul class="plain reviews">
      {reviews.map((review) => (
        <li key={review.id}>
          <span class={`badge ${review.decision}`}>{label('verificationStatus', review.decision)}</span>{' '}
          {review.reviewedBy} · {formatDate(review.reviewedAt ?? review.createdAt, language)} ·{' '}
          {label('reasonCode', review.reasonCode)} — {review.reason}
          {awaitsConfirmation(review) ? (
            <>
              {' '}
              <em>{t('case.awaitingConfirmation')}</em>
              {onConfirm && review.reviewedBy !== user?.email ? (
                <button type="button" onClick={() => onConfirm(review)}>
                  {t('case.confirm')}
                </button>
              ) : null}
            </>
          ) : review.confirmedBy ? (
            <span> · {t('case.confirmedBy', { reviewer: review.confirmedBy })}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

const NEW_CAPTURE = 'new_capture_requested';
type Choice = 'approved' | 'rejected' | typeof NEW_CAPTURE;
const CHOICES: readonly Choice[] = ['approved', 'rejected', NEW_CAPTURE];

/** `onDone` gets the decision once it is final, null when it waits for a second reviewer. */
export function ReviewForm({
  base,
  onDone,
}: {
  base: string;
  onDone: (decision: 'approved' | 'rejected' | null) => unknown;
}) {
  const { api, t } = useConsole();
  const label = useLabel();
  const [choice, setChoice] = useState<Choice | ''>('');
  const [reasonCode, setReasonCode] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'decision' | 'reasonCode' | 'reason', string>>>({});
  const [error, setError] = useState<unknown>(null);
  const [pendingConfirmation, setPendingConfirmation] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const missing: typeof errors = {};
    if (!choice) missing.decision = t('reviewForm.required');
    if (choice !== NEW_CAPTURE && !reasonCode) missing.reasonCode = t('reviewForm.required');
    if (reason.trim().length < 1 || reason.length > 500) missing.reason = t('reviewForm.reasonLength');
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post<{ review: Review; session?: unknown }>(`${base}/review`, {
        decision: choice === NEW_CAPTURE ? 'rejected' : choice,
        reasonCode: choice === NEW_CAPTURE ? NEW_CAPTURE : reasonCode,
        reason: reason.trim(),
      });
      if (!answer.session) setPendingConfirmation(true);
      onDone(answer.session ? answer.review.decision : null);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  if (pendingConfirmation) return <p role="status">{t('reviewForm.sentForConfirmation')}</p>;
  return (
    <form class="review-form" onSubmit={submit} noValidate>
      <h2>{t('reviewForm.title')}</h2>
      <fieldset aria-describedby={errors.decision ? 'review-decision-error' : undefined}>
        <legend>{t('reviewForm.decision')}</legend>
        {CHOICES.map((value) => (
          <label key={value} class="choice">
            <input
              type="radio"
              name="decision"
              value={value}
              checked={choice === value}
              onChange={() => {
                setChoice(value);
                // A reason of the other decision does not stay chosen.
                if (value === NEW_CAPTURE || !reasonCodesFor(value).includes(reasonCode as ReasonCode))
                  setReasonCode('');
                setErrors(({ decision: _, ...rest }) => rest);
              }}
            />
            {t(`reviewForm.${value}` as MessageKey)}
          </label>
        ))}
        {errors.decision ? (
          <small class="field-error" id="review-decision-error">
            {errors.decision}
          </small>
        ) : null}
      </fieldset>
      {choice === NEW_CAPTURE ? (
        <p class="hint">{t('reviewForm.newCaptureHint')}</p>
      ) : (
        <Field id="review-reason-code" label={t('reviewForm.reasonCode')} error={errors.reasonCode}>
          <select
            id="review-reason-code"
            value={reasonCode}
            onChange={(e) => {
              setReasonCode(e.currentTarget.value);
              setErrors(({ reasonCode: _, ...rest }) => rest);
            }}
            {...describedBy('review-reason-code', errors.reasonCode)}
          >
            <option value="">{t('reviewForm.choose')}</option>
            {(choice ? reasonCodesFor(choice).filter((code) => code !== NEW_CAPTURE) : []).map((code) => (
              <option key={code} value={code}>
                {label('reasonCode', code)}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field
        id="review-reason"
        label={t('reviewForm.reason')}
        hint={t('reviewForm.reasonLength')}
        error={errors.reason}
      >
        <textarea
          id="review-reason"
          rows={3}
          maxLength={500}
          value={reason}
          onInput={(e) => {
            setReason(e.currentTarget.value);
            setErrors(({ reason: _, ...rest }) => rest);
          }}
          {...describedBy('review-reason', errors.reason)}
        />
      </Field>
      <ErrorText error={error} />
      <button type="submit" disabled={busy}>
        {t('reviewForm.submit')}
      </button>
    </form>
  );
}
