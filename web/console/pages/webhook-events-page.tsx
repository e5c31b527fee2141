// Webhook deliveries of the tenant: each event's target URL and state; on demand the exact request
// body sent and every attempt with the receiver's status code and answer (its first 1 KB); a
// redeliver button; and "send test event", which posts a signed webhook.test to an allowed URL and
// shows what went out and what came back.
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
  callbackUrl: string;
}

interface Attempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  responseBody?: string | null;
  responseBodyTruncated?: boolean;
}

interface EventDetail {
  request?: { url: string; headers: Record<string, string>; body: string | null; truncated: boolean };
  attempts: Attempt[];
}

interface TestResult {
  url: string;
  requestBody: string;
  outcome: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  responseBodyTruncated: boolean;
}

/** JSON laid out for reading; anything else as it came. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A receiver's answer: its start as text, marked when it was cut. */
function ResponseBody({ body, truncated }: { body: string | null | undefined; truncated?: boolean }) {
  const { t } = useConsole();
  if (body === null || body === undefined) return <span>—</span>;
  if (body === '') return <em>{t('webhooks.emptyBody')}</em>;
  return (
    <>
      <pre class="body">{body}</pre>
      {truncated ? <small class="hint">{t('webhooks.truncated')}</small> : null}
    </>
  );
}

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'gone'];

/** Every attempt: when, the receiver's status code, the error, how long, and the start of its answer. */
function AttemptTable({ attempts }: { attempts: Attempt[] }) {
  const { t, language } = useConsole();
  return (
    <table class="attempts">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{t('webhooks.at')}</th>
          <th scope="col">{t('webhooks.statusCode')}</th>
          <th scope="col">{t('webhooks.error')}</th>
          <th scope="col">{t('webhooks.duration')}</th>
          <th scope="col">{t('webhooks.response')}</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((a) => (
          <tr key={a.attempt}>
            <td>{a.attempt}</td>
            <td>{formatDate(a.at, language)}</td>
            <td>{a.statusCode ?? '—'}</td>
            <td>{a.error ?? '—'}</td>
            <td>{a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
            <td>
              <ResponseBody body={a.responseBody} truncated={a.responseBodyTruncated} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Attempts({ path }: { path: string }) {
  const { api, t } = useConsole();
  const { data, error } = useLoad(() => api.get<EventDetail>(path), [path]);
  if (error) return <ErrorText error={error} />;
  if (!data) return <p>{t('common.loading')}</p>;
  return (
    <div class="event-detail">
      {data.request ? (
        <div class="request">
          <h3>{t('webhooks.request')}</h3>
          <p>
            <code>POST {data.request.url}</code>
          </p>
          <ul class="headers">
            {Object.entries(data.request.headers).map(([name, value]) => (
              <li key={name}>
                <code>
                  {name}: {value}
                </code>
              </li>
            ))}
          </ul>
          {data.request.body === null ? null : <pre class="body">{pretty(data.request.body)}</pre>}
          {data.request.truncated ? <small class="hint">{t('webhooks.requestTruncated')}</small> : null}
        </div>
      ) : null}
      <h3>{t('webhooks.attempts')}</h3>
      {data.attempts.length === 0 ? (
        <p>{t('webhooks.noAttempts')}</p>
      ) : (
        <AttemptTable attempts={data.attempts} />
      )}
    </div>
  );
}

/** "Send test event": a signed webhook.test to a URL of the allow list, and both sides of it. */
function TestEvent({ path, suggestion }: { path: string; suggestion: string }) {
  const { api, t } = useConsole();
  const [url, setUrl] = useState('');
  const [result, setResult] = useState<TestResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const send = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult((await api.post<{ test: TestResult }>(path, { url: url || suggestion })).test);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="test-event" onSubmit={send}>
      <h2>{t('webhooks.testTitle')}</h2>
      <p class="hint">{t('webhooks.testLead')}</p>
      <div class="inline">
        <Field id="webhook-test-url" label={t('webhooks.testUrl')}>
          <input
            id="webhook-test-url"
            type="url"
            placeholder={suggestion}
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" disabled={busy}>
          {t('webhooks.sendTest')}
        </button>
      </div>
      <ErrorText error={error} />
      {result ? (
        <div class="test-result" role="status">
          <p>
            <span class={`badge ${result.outcome === 'success' ? 'delivered' : 'failed'}`}>
              {result.statusCode === null ? t('webhooks.noResponse') : `HTTP ${result.statusCode}`}
            </span>{' '}
            {result.error ? <span>{result.error}</span> : null} · {result.durationMs} ms ·{' '}
            <code>POST {result.url}</code>
          </p>
          <div class="two-columns">
            <div>
              <h3>{t('webhooks.request')}</h3>
              <pre class="body">{pretty(result.requestBody)}</pre>
            </div>
            <div>
              <h3>{t('webhooks.response')}</h3>
              <ResponseBody body={result.responseBody} truncated={result.responseBodyTruncated} />
            </div>
          </div>
        </div>
      ) : null}
    </form>
  );
}

export function WebhookEventsPage({ tenantId }: { tenantId: string }) {
  const { api, t, language, user } = useConsole();
  // Operators read the log (read-only, audited); sending and redelivering are the tenant admin's.
  const isReadOnly = user?.role === 'operator';
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
      {isReadOnly ? (
        <p class="banner" role="note">
          {t('webhooks.operatorReadOnly', { tenantId })}
        </p>
      ) : (
        <TestEvent
          path={api.tenantPath(tenantId, 'webhook-test')}
          suggestion={data?.events[0]?.callbackUrl ?? ''}
        />
      )}
      <h2>{t('webhooks.log')}</h2>
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
              <code class="target">→ {event.callbackUrl}</code>
              <button
                type="button"
                class="secondary"
                aria-expanded={open === event.eventId}
                onClick={() => setOpen(open === event.eventId ? null : event.eventId)}
              >
                {t('webhooks.details')}
              </button>
              {isReadOnly ? null : (
                <button type="button" onClick={() => redeliver(event.eventId)}>
                  {t('webhooks.redeliver')}
                </button>
              )}
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
