// The two tenant API calls `mimoto simulate` makes as a tenant's server would (docs/api-reference.md
// §4.1, §4.2): create the session it then completes, and read its detail until a decision exists.
// Server-to-server: the API key goes in the Authorization header and nowhere else.

/** The API answered with an error body (docs/api-reference.md §7); `code` is its `error` field. */
export class TenantApiRefused extends Error {
  override name = 'TenantApiRefused';
  constructor(
    readonly step: string,
    readonly status: number,
    readonly code: string | null,
    readonly serverMessage: string,
  ) {
    super(`${step}: HTTP ${status}${code ? ` ${code}` : ''}${serverMessage ? ` — ${serverMessage}` : ''}`);
  }
}

export interface CreateSessionRequest {
  callbackUrl: string;
  state?: string;
  preRegisteredInfo?: { lastName?: string; firstName?: string; birthDate?: string; address?: string };
}

export interface CreatedSession {
  sessionId: string;
  verificationUrl: string;
  verificationUrlExpiresAt: string;
  expiresAt: string;
}

/** The parts of GET detail the simulator reports (the whole shape: docs/api-reference.md §2.1). */
export interface SessionDetail {
  sessionId: string;
  status: string;
  verification: {
    status: string;
    decision?: { status: string; reason: string } | null;
    preRegisteredInfoMatch?: Record<string, unknown>;
    userInputMatch?: boolean;
  } | null;
}

async function refusal(step: string, response: Response): Promise<TenantApiRefused> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as {
      error?: string;
      message?: string;
      details?: { path: string; message: string }[];
    };
    const message = [body.message, ...(body.details ?? []).map((d) => `${d.path} ${d.message}`)]
      .filter(Boolean)
      .join('; ');
    return new TenantApiRefused(step, response.status, body.error ?? null, message);
  } catch {
    return new TenantApiRefused(step, response.status, null, text.replace(/\s+/g, ' ').trim().slice(0, 200));
  }
}

export class TenantApiClient {
  constructor(
    /** The service's public URL, e.g. http://127.0.0.1:8080 (MIMOTO_PUBLIC_URL). */
    readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.apiKey}`, accept: 'application/json', ...extra };
  }

  async createSession(request: CreateSessionRequest): Promise<CreatedSession> {
    const response = await fetch(`${this.baseUrl}/v1/verification-sessions`, {
      method: 'POST',
      redirect: 'manual',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(request),
    });
    if (response.status !== 201) throw await refusal('create the session', response);
    return (await response.json()) as CreatedSession;
  }

  async getSession(sessionId: string): Promise<SessionDetail> {
    const response = await fetch(
      `${this.baseUrl}/v1/verification-sessions/${encodeURIComponent(sessionId)}`,
      { redirect: 'manual', headers: this.headers() },
    );
    if (response.status !== 200) throw await refusal('read the session', response);
    return (await response.json()) as SessionDetail;
  }
}
