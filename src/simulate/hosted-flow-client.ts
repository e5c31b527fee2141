// The hosted flow's JSON API as the browser app calls it (docs/hosted-flow-api.md): the cookie
// from the one-time link on every request, the CSRF token from GET state on every POST/PUT, and
// the user's language in Accept-Language. Nothing else: no Origin header (a non-browser client
// sends none, which the server accepts), no redirects followed.
import type { FlowState } from '../hosted-flow/index.ts';

export type { FlowState };

/** The server said no to a step; the flow cannot go on from here. */
export class FlowStepRefused extends Error {
  override name = 'FlowStepRefused';
  constructor(
    readonly step: string,
    readonly status: number,
    /** The stable error key of the body (e.g. ImageBlurred), or null when the body had none. */
    readonly code: string | null,
    readonly serverMessage: string,
  ) {
    super(`${step}: HTTP ${status}${code ? ` ${code}` : ''}${serverMessage ? ` — ${serverMessage}` : ''}`);
  }
}

export interface LivenessChallenge {
  challengeId: string;
  steps: string[];
  /** The screen-light challenge (absent from a server that does not ask for one). */
  light?: { colours: string[]; segmentMs: number; fadeMs: number };
  expiresAt: string;
  attemptsLeft: number;
}

export interface LivenessAttemptAnswer {
  passed: boolean;
  livenessStatus: 'success' | 'failed' | 'pending';
  confidence: number;
  failures: string[];
  attemptsLeft: number;
  messages: { key: string; message: string }[];
}

async function readError(step: string, response: Response): Promise<FlowStepRefused> {
  const text = await response.text();
  let code: string | null = null;
  let message = text.slice(0, 200);
  try {
    const body = JSON.parse(text) as {
      error?: string;
      message?: string;
      details?: { path: string; message: string }[];
    };
    code = body.error ?? null;
    message = [body.message, ...(body.details ?? []).map((d) => `${d.path} ${d.message}`)]
      .filter(Boolean)
      .join('; ');
  } catch {
    // An HTML page (the link pages) or a proxy's answer: keep the start of the text.
    message = text
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200);
  }
  return new FlowStepRefused(step, response.status, code, message);
}

export class HostedFlowClient {
  private csrfToken = '';

  private constructor(
    readonly origin: string,
    private readonly cookie: string,
    readonly language: string,
  ) {}

  /**
   * Uses the one-time link (`GET /verify?sessionId&token`): the answer must be the 303 into the
   * flow with the `mimoto_flow` cookie (410 expired or used link, 403 other network).
   */
  static async enter(verificationUrl: string, language: string): Promise<HostedFlowClient> {
    const url = new URL(verificationUrl);
    const response = await fetch(url, { redirect: 'manual', headers: { 'accept-language': language } });
    if (response.status !== 303) throw await readError('open the verification link', response);
    const cookie = response.headers
      .getSetCookie()
      .map((line) => /^(mimoto_flow=[^;]+)/.exec(line)?.[1])
      .find(Boolean);
    if (!cookie) throw new FlowStepRefused('open the verification link', 303, null, 'no flow cookie was set');
    const client = new HostedFlowClient(url.origin, cookie, language);
    client.csrfToken = (await client.state()).csrfToken;
    return client;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      cookie: this.cookie,
      'x-csrf-token': this.csrfToken,
      'accept-language': this.language,
      ...extra,
    };
  }

  private async call(step: string, method: string, path: string, body?: unknown): Promise<Response> {
    const response = await fetch(`${this.origin}${path}`, {
      method,
      redirect: 'manual',
      headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw await readError(step, response);
    return response;
  }

  private async upload(step: string, path: string, form: FormData): Promise<Response> {
    const response = await fetch(`${this.origin}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: this.headers(),
      body: form,
    });
    if (!response.ok) throw await readError(step, response);
    return response;
  }

  async state(): Promise<FlowState> {
    return (await this.call('read the flow state', 'GET', '/verify/api/state')).json() as Promise<FlowState>;
  }

  async giveConsent(): Promise<void> {
    await this.call('consent', 'POST', '/verify/api/consent');
  }

  async chooseDocumentType(documentType: string): Promise<void> {
    await this.call('document type', 'PUT', '/verify/api/document-type', { documentType });
  }

  async uploadDocument(side: 'front' | 'back', jpeg: Buffer): Promise<{ width: number; height: number }> {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `${side}.jpg`);
    const response = await this.upload(`${side} of the document`, `/verify/api/documents/${side}`, form);
    return response.json() as Promise<{ width: number; height: number }>;
  }

  async requestChallenge(): Promise<LivenessChallenge> {
    const response = await this.call('liveness challenge', 'POST', '/verify/api/liveness/challenge');
    return response.json() as Promise<LivenessChallenge>;
  }

  async sendLivenessAttempt(
    challengeId: string,
    timestamps: number[],
    frames: Buffer[],
    camera?: { label: string; width: number; height: number; frameRate: number },
  ): Promise<LivenessAttemptAnswer> {
    const form = new FormData();
    form.append('challengeId', challengeId);
    form.append('timestamps', JSON.stringify(timestamps));
    if (camera) form.append('camera', JSON.stringify(camera));
    for (const [i, frame] of frames.entries()) {
      form.append('frames', new Blob([new Uint8Array(frame)], { type: 'image/jpeg' }), `frame-${i}.jpg`);
    }
    const response = await this.upload('liveness frames', '/verify/api/liveness/attempts', form);
    return response.json() as Promise<LivenessAttemptAnswer>;
  }

  async savePersonalData(data: object): Promise<void> {
    await this.call('personal data', 'PUT', '/verify/api/personal-data', data);
  }

  async submit(): Promise<string> {
    const response = await this.call('submit', 'POST', '/verify/api/submit');
    return ((await response.json()) as { redirectTo: string }).redirectTo;
  }
}
