// Shared by the hosted-flow tests: a session, its link, and a browser-like client holding the cookie.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { CALLBACK_PREFIX, type TestApi } from '../helpers/api-client.ts';

export const dataDirEnv = () => ({ MIMOTO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mimoto-flow-')) });

export async function newSession(t: TestApi, body: Record<string, unknown> = {}) {
  const res = await t.api.createSession({
    callbackUrl: `${CALLBACK_PREFIX}/done`,
    clientIpAddress: '127.0.0.1',
    state: 'tenant-state-1',
    ...body,
  });
  if (res.statusCode !== 201) throw new Error(`create session: ${res.statusCode} ${res.body}`);
  const created = res.json() as { sessionId: string; verificationUrl: string };
  const url = new URL(created.verificationUrl);
  return { sessionId: created.sessionId, path: `${url.pathname}${url.search}` };
}

export function cookieOf(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const line = Array.isArray(header) ? header[0] : header;
  const value = /mimoto_flow=([^;]+)/.exec(line ?? '')?.[1];
  if (!value) throw new Error('no flow cookie');
  return value;
}

/** A browser that entered the flow: its cookie and CSRF token. */
export class FlowClient {
  constructor(
    readonly t: TestApi,
    readonly cookie: string,
    public csrf = '',
  ) {}

  static async enter(t: TestApi, body: Record<string, unknown> = {}) {
    const session = await newSession(t, body);
    const res = await t.api.app.inject({ method: 'GET', url: session.path });
    if (res.statusCode !== 303) throw new Error(`enter: ${res.statusCode}`);
    const client = new FlowClient(t, cookieOf(res));
    const state = await client.state();
    client.csrf = (state.json() as { csrfToken: string }).csrfToken;
    return Object.assign(client, { sessionId: session.sessionId });
  }

  state(headers: Record<string, string> = {}) {
    return this.t.api.app.inject({
      method: 'GET',
      url: '/verify/api/state',
      headers: { cookie: `mimoto_flow=${this.cookie}`, ...headers },
    });
  }

  send(method: 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.t.api.app.inject({
      method,
      url,
      headers: {
        cookie: `mimoto_flow=${this.cookie}`,
        'x-csrf-token': this.csrf,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  upload(
    url: string,
    files: { field: string; bytes: Buffer; name?: string; type?: string }[],
    fields: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const f of files)
      form.append(
        f.field,
        new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'image/jpeg' }),
        f.name ?? 'photo.jpg',
      );
    return multipartInject(this, url, form, headers);
  }
}

async function multipartInject(
  client: FlowClient,
  url: string,
  form: FormData,
  headers: Record<string, string>,
) {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return client.t.api.app.inject({
    method: 'POST',
    url,
    payload,
    headers: {
      cookie: `mimoto_flow=${client.cookie}`,
      'x-csrf-token': client.csrf,
      'content-type': request.headers.get('content-type') ?? '',
      ...headers,
    },
  });
}
