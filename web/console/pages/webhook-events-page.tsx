// Webhook deliveries of the tenant: each event's state; on demand where it went, the exact body
// sent and every attempt (status code, the receiver's answer, error, duration); a redeliver button.
import { useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { ErrorText, Field, formatDate, useAction, useLabel, useLoad } from '../ui.tsx';

interface WebhookEvent {
  eventId: string;
  sessionId: string;
  event: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  createdAt: string;
}

interface Attempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  responseBody: string | null;
}

interface EventDetail {
  request: { url: string; body: string | null; truncated: boolean };
  attempts: Attempt[];
}

/** A JSON body indented for reading; other text as it is. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'gone'];

function Attempts({ path }: { path: string }) {
  const { api, t, language } = useConsole();
  const { data, error } = useLoad(() => api.get<EventDetail>(path), [path]);
  if (error) return <ErrorText error={error} />;
  if (!data) return <p>{t('common.loading')}</p>;
  return (
    <div class="event-detail">
      <p>
        {t('webhooks.url')}: <code>{data.request.url}</code>
      </p>
      {data.request.body === null ? null : (
        <details>
          <summary>
            {t('webhooks.requestBody')}
            {data.request.truncated ? ` (${t('webhooks.truncated')})` : ''}
          </summary>
          <pre class="payload">{pretty(data.request.body)}</pre>
        </details>
      )}
      {data.attempts.length === 0 ? (
        <p>{t('webhooks.noAttempts')}</p>
      ) : (
        <table class="attempts">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('webhooks.at')}</th>
              <th scope="col">{t('webhooks.statusCode')}</th>
              <th scope="col">{t('webhooks.responseBody')}</th>
              <th scope="col">{t('webhooks.error')}</th>
              <th scope="col">{t('webhooks.duration')}</th>
            </tr>
          </thead>
          <tbody>
            {data.attempts.map((a) => (
              <tr key={a.attempt}>
                <td>{a.attempt}</td>
                <td>{formatDate(a.at, language)}</td>
                <td>{a.statusCode ?? '—'}</td>
                <td>{a.responseBody ? <code class="snippet">{a.responseBody.slice(0, 300)}</code> : '—'}</td>
                <td>{a.error ?? '—'}</td>
                <td>{a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function WebhookEventsPage({ tenantId }: { tenantId: string }) {
  const { api, t, language } = useConsole();
  const label = useLabel();
  const path = api.tenantPath(tenantId, 'webhook-events');
  const [status, setStatus] = useState('');
  const { data, error, reload } = useLoad(
    () => api.get<{ events: WebhookEvent[] }>(path, { status }),
    [path, status],
  );
  const [open, setOpen] = useState<string | null>(null);
  const { run, error: actionError } = useAction(reload);
  const [redelivered, setRedelivered] = useState<string | null>(null);

  const redeliver = (eventId: string) =>
    run(async () => {
      setRedelivered(null);
      await api.post(`${path}/${encodeURIComponent(eventId)}/redeliver`);
      setRedelivered(eventId);
    });

  return (
    <section>
      <h1>{t('webhooks.title')}</h1>
      <div class="filters">
        <Field id="webhook-status" label={t('filter.status')}>
          <select id="webhook-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">{t('filter.any')}</option>
            {DELIVERY_STATUSES.map((value) => (
              <option key={value} value={value}>
                {label('deliveryStatus', value)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ErrorText error={error ?? actionError} />
      {redelivered ? <p role="status">{t('webhooks.redelivered')}</p> : null}
      {data?.events.length === 0 ? <p role="status">{t('webhooks.empty')}</p> : null}
      <ul class="plain events">
        {data?.events.map((event) => (
          <li key={event.eventId}>
            <div class="event-line">
              <code>{event.event}</code>
              <span class={`badge ${event.status}`}>{label('deliveryStatus', event.status)}</span>
              <span>{formatDate(event.createdAt, language)}</span>
              <span>{t('webhooks.attemptCount', { count: event.attempts })}</span>
              <span>
                {t('webhooks.lastStatus')}: {event.lastStatusCode ?? '—'}
              </span>
              <span>
                {t('webhooks.next')}: {formatDate(event.nextAttemptAt, language)}
              </span>
              <code class="muted">{event.sessionId}</code>
              <button
                type="button"
                class="secondary"
                aria-expanded={open === event.eventId}
                onClick={() => setOpen(open === event.eventId ? null : event.eventId)}
              >
                {t('webhooks.attempts')}
              </button>
              <button type="button" onClick={() => redeliver(event.eventId)}>
                {t('webhooks.redeliver')}
              </button>
            </div>
            {open === event.eventId ? (
              <Attempts path={`${path}/${encodeURIComponent(event.eventId)}`} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
