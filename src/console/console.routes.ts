// The console's HTTP surface (docs/console-api.md): a scope at /console/api with the public
// sign-in routes and a nested signed-in scope (cookie → user, CSRF and Origin checks) holding the
// admin routes and the review routes; the browser app's pages beside it.
import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CONSOLE_ROLES,
  type ConsoleRole,
  consoleUser,
  onlyRoles,
  requestActor,
  requireRole,
} from '../actors/index.ts';
import type { Config } from '../config.ts';
import { sha256Hex } from '../platform/crypto/random-id.ts';
import { AppError } from '../platform/http/app-error.ts';
import { ConsoleUserId, TenantId } from '../platform/http/id-schemas.ts';
import type { Platform } from '../platform/platform.ts';
import { registerReviewConsoleRoutes } from '../review/index.ts';
import { registerAdminRoutes } from './admin.routes.ts';
import {
  createConsoleUser,
  disableUser,
  loadConsoleSession,
  MAX_PASSWORD_LENGTH,
  SESSION_ABSOLUTE_MS,
  setPasswordWithLink,
  signIn,
  signOut,
  toUserView,
} from './console-accounts.ts';
import { registerConsolePages } from './console-pages.ts';
import { Text } from './console-schemas.ts';
import { findConsoleUser, listConsoleUsers } from './console-user-repository.ts';
import { LoginLimiter } from './login-limiter.ts';

export const CONSOLE_COOKIE = 'mimoto_console';
const CSRF_HEADER = 'x-csrf-token';
/** Per-IP sign-in attempts: 20 per 10 minutes. */
const LOGIN_ATTEMPTS = 20;
const LOGIN_WINDOW_MS = 10 * 60_000;

const hide = true;
const Email = Text(254);
const LoginBody = Type.Object(
  { email: Email, password: Text(MAX_PASSWORD_LENGTH) },
  { additionalProperties: false },
);
const PasswordBody = Type.Object(
  {
    token: Text(128),
    // The length rule (12–200 characters, not UTF-16 units) is checked by the service.
    password: Text(2 * MAX_PASSWORD_LENGTH),
  },
  { additionalProperties: false },
);
const Role = Type.Union(CONSOLE_ROLES.map((role) => Type.Literal(role)));
const CreateUserBody = Type.Object(
  { email: Email, role: Role, tenantId: Type.Optional(Type.Union([TenantId, Type.Null()])) },
  { additionalProperties: false },
);
const UsersQuery = Type.Object({ tenantId: Type.Optional(TenantId) }, { additionalProperties: false });
const UserParams = Type.Object({ userId: ConsoleUserId });

export async function registerConsole(app: FastifyInstance, platform: Platform): Promise<void> {
  await app.register(async (api) => consoleApiScope(api, platform), { prefix: '/console/api' });
  await registerConsolePages(app, platform);
}

function sameText(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(sha256Hex(a)), Buffer.from(sha256Hex(b)));
}

/** Another site's page may not make a signed-in browser act: a browser that names its origin must name ours. */
function requireSameOrigin(config: Config, request: FastifyRequest) {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== new URL(config.publicUrl).origin) {
    throw new AppError('CsrfTokenInvalid');
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('CsrfTokenInvalid');
}

const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD';

function setSessionCookie(reply: FastifyReply, config: Config, value: string) {
  reply.setCookie(CONSOLE_COOKIE, value, {
    path: '/console',
    httpOnly: true,
    sameSite: 'strict',
    secure: config.env !== 'development',
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

const CSRF_TOKEN = Symbol('consoleCsrfToken');
type WithCsrf = FastifyRequest & { [CSRF_TOKEN]?: string };

async function consoleApiScope(scope: FastifyInstance, platform: Platform) {
  const { config } = platform;
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  await api.register(cookie);
  api.addHook('onRequest', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!isSafeMethod(request.method)) requireSameOrigin(config, request);
  });

  const loginLimiter = new LoginLimiter(LOGIN_ATTEMPTS, LOGIN_WINDOW_MS, () => platform.now().getTime());
  api.post('/login', { schema: { hide, body: LoginBody } }, async (request, reply) => {
    const waitSeconds = loginLimiter.take(request.ip);
    if (waitSeconds > 0) {
      throw new AppError('TooManyRequests', undefined, undefined, { 'Retry-After': String(waitSeconds) });
    }
    const signedIn = await signIn(platform, request.body, request.ip);
    setSessionCookie(reply, config, signedIn.cookieValue);
    return { user: signedIn.user, csrfToken: signedIn.csrfToken };
  });

  api.post('/password', { schema: { hide, body: PasswordBody } }, async (request, reply) => {
    await setPasswordWithLink(platform, request.body, request.ip);
    reply.code(204);
  });

  await api.register(async (signedInScope) => {
    signedInScope.addHook('onRequest', async (request) => {
      const value = request.cookies[CONSOLE_COOKIE];
      const session =
        value && /^[A-Za-z0-9]{43}$/.test(value) ? await loadConsoleSession(platform, value) : undefined;
      if (!session) throw new AppError('ConsoleLoginRequired');
      if (!isSafeMethod(request.method)) {
        const token = request.headers[CSRF_HEADER];
        if (typeof token !== 'string' || !sameText(token, session.csrfToken))
          throw new AppError('CsrfTokenInvalid');
      }
      request.consoleUser = session.user;
      (request as WithCsrf)[CSRF_TOKEN] = session.csrfToken;
    });
    const signedIn = signedInScope.withTypeProvider<TypeBoxTypeProvider>();

    signedIn.post('/logout', { schema: { hide } }, async (request, reply) => {
      await signOut(platform, request.cookies[CONSOLE_COOKIE]!);
      reply.clearCookie(CONSOLE_COOKIE, { path: '/console' });
      reply.code(204);
    });

    signedIn.get('/me', { schema: { hide } }, async (request) => ({
      user: consoleUser(request),
      csrfToken: (request as WithCsrf)[CSRF_TOKEN],
    }));

    signedIn.get(
      '/users',
      { ...onlyRoles(['operator', 'tenant_admin']), schema: { hide, querystring: UsersQuery } },
      async (request) => {
        const user = requireRole(request, ['operator', 'tenant_admin'], request.query.tenantId);
        const tenantId = user.role === 'operator' ? request.query.tenantId : user.tenantId!;
        const users = await listConsoleUsers(platform.database.db, tenantId);
        return { users: users.map(toUserView) };
      },
    );

    signedIn.post(
      '/users',
      { ...onlyRoles(['operator', 'tenant_admin']), schema: { hide, body: CreateUserBody } },
      async (request, reply) => {
        const user = requireRole(request, ['operator', 'tenant_admin'], request.body.tenantId ?? undefined);
        const body = request.body;
        // A tenant admin adds admins and reviewers to their own tenant, never operators.
        const tenantRoles: ConsoleRole[] = ['tenant_admin', 'reviewer'];
        if (user.role === 'tenant_admin' && !tenantRoles.includes(body.role)) throw new AppError('Forbidden');
        const tenantId = user.role === 'operator' ? (body.tenantId ?? null) : user.tenantId;
        reply.code(201);
        return createConsoleUser(platform, requestActor(request), { ...body, tenantId });
      },
    );

    signedIn.post(
      '/users/:userId/disable',
      { ...onlyRoles(['operator', 'tenant_admin']), schema: { hide, params: UserParams } },
      async (request) => {
        requireRole(request, ['operator', 'tenant_admin']);
        const target = await findConsoleUser(platform.database.db, request.params.userId);
        if (!target) throw new AppError('NotFound', 'no such console user');
        // Operators (tenant null) are out of every tenant admin's reach.
        requireRole(request, ['operator', 'tenant_admin'], target.tenantId ?? '');
        return { user: await disableUser(platform, requestActor(request), target.id) };
      },
    );

    registerAdminRoutes(signedInScope, platform);
    registerReviewConsoleRoutes(signedInScope, platform);
  });
}
