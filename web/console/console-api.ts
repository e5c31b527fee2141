// The browser's side of the console's JSON API (docs/console-api.md): same-origin fetches with the
// session cookie, and the CSRF token (from login or GET /me) on every non-GET request.

export type Role = 'operator' | 'tenant_admin' | 'reviewer';

export interface ConsoleUser {
  id: string;
  email: string;
  role: Role;
  tenantId: string | null;
}

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An error answer of the API: the stable code, the server's message and per-field details. */
export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[],
  ) {
    super(message);
  }

  /** The server's message for one field, matched on the last segment of the detail's path. */
  fieldMessage(field: string): string | null {
    const detail = this.details.find((d) => d.path.split('/').includes(field));
    return detail ? detail.message : null;
  }
}

type Query = Record<string, string | number | undefined>;

export function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export class ConsoleApi {
  csrfToken = '';
  /** Called on 401 ConsoleLoginRequired so the app can show the login screen. */
  onSignedOut: () => void = () => {};

  async call<T>(method: string, path: string, body?: object): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (method !== 'GET') headers['x-csrf-token'] = this.csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`/console/api/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (response.status === 204) return undefined as T;
    const json = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new ConsoleApiError(
        response.status,
        String(json.error ?? 'InternalError'),
        String(json.message ?? ''),
        Array.isArray(json.details) ? json.details : [],
      );
      if (error.code === 'ConsoleLoginRequired') this.onSignedOut();
      throw error;
    }
    return json as T;
  }

  get = <T>(path: string, query: Query = {}) => this.call<T>('GET', withQuery(path, query));
  post = <T>(path: string, body?: object) => this.call<T>('POST', path, body);
  put = <T>(path: string, body: object) => this.call<T>('PUT', path, body);
  delete = <T>(path: string, body?: object) => this.call<T>('DELETE', path, body);

  async login(email: string, password: string): Promise<ConsoleUser> {
    const answer = await this.post<{ user: ConsoleUser; csrfToken: string }>('login', { email, password });
    this.csrfToken = answer.csrfToken;
    return answer.user;
  }

  async me(): Promise<ConsoleUser> {
    const answer = await this.get<{ user: ConsoleUser; csrfToken: string }>('me');
    this.csrfToken = answer.csrfToken;
    return answer.user;
  }

  logout = () => this.post<void>('logout');
  setPassword = (token: string, password: string) => this.post<void>('password', { token, password });

  /** `tenants/:tenantId/<rest>`: the tenant-scoped routes. */
  tenantPath = (tenantId: string, rest = '') =>
    `tenants/${encodeURIComponent(tenantId)}${rest ? `/${rest}` : ''}`;
}
