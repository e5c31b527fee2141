// The hosted flow's HTTP surface (docs/hosted-flow-api.md): the one-time link, the
// server-rendered pages, and the JSON API the browser app uses under /verify/api. Its own scope:
// cookies, multipart and form parsers, no-store and CSP on every answer, and error bodies in the
// user's language.
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireApiKey } from '../api-keys/index.ts';
import { terminateOcrEngine } from '../checks/ocr/index.ts';
import { closeInferencePool } from '../inference/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import { installErrorHandler } from '../platform/http/error-handler.ts';
import { LinkToken, SessionId } from '../platform/http/id-schemas.ts';
import {
  type MultipartLimits,
  multipartParts,
  readFile,
  requireMultipart,
} from '../platform/http/multipart.ts';
import type { Platform } from '../platform/platform.ts';
import { brandingOf, findTenant, tenantLogoBlobKey } from '../tenants/index.ts';
import {
  CHIP_READING_BODY_LIMIT,
  ChipReadingBody,
  describeChipReader,
  issueChipNonce,
  issueChipReader,
  receiveChipReading,
} from './chip-reader.ts';
import { MAX_IMAGE_BYTES } from './decode-upload-image.ts';
import { DOCUMENT_TYPES } from './document-types.ts';
import { enterFlow } from './enter-flow.ts';
import { registerFlowAppAssets, sendFlowApp } from './flow-app-assets.ts';
import { FLOW_MESSAGES, LIVENESS_FAILURE_MESSAGES, negotiateLanguage } from './flow-messages.ts';
import { API_CSP, logoUrlOf, type PageTenant, pageStylesheet, sendPage } from './flow-pages.ts';
import {
  FLOW_COOKIE,
  loadFlowSession,
  requireCsrfToken,
  sessionOfFlowCookie,
  setFlowCookie,
} from './flow-session.ts';
import {
  chooseDocumentType,
  getFlowState,
  giveConsent,
  issueLivenessChallenge,
  savePersonalData,
  submitVerification,
  uploadDocumentImage,
} from './flow-steps.ts';
import { identifyDocumentCapture } from './identify-document-capture.ts';
import {
  AttemptsInFlight,
  frameTooLarge,
  LIVENESS_UPLOAD_LIMITS,
  receiveLivenessAttempt,
} from './liveness-attempt.ts';
import { issueHandoff, readHandoffStatus, useHandoff } from './phone-handoff.ts';
import { readSessionImage, registerSessionImageRoutes } from './session-images.routes.ts';
import { checkTiltedCapture } from './thickness-capture.ts';
import { UserInputBody } from './user-input.ts';

const DOCUMENT_UPLOAD_LIMITS: MultipartLimits = {
  maxRequestBytes: MAX_IMAGE_BYTES + 64 * 1024,
  maxFileBytes: MAX_IMAGE_BYTES,
  maxFiles: 1,
  maxFields: 4,
  maxFieldBytes: 4096,
};
const imageTooLarge = () => new AppError('ImageTooLarge');
/** The largest upload request a flow route accepts. */
export const MAX_UPLOAD_REQUEST_BYTES = Math.max(
  DOCUMENT_UPLOAD_LIMITS.maxRequestBytes,
  LIVENESS_UPLOAD_LIMITS.maxRequestBytes,
);

/** The tenant as a refusal page shows it; null when none is known. */
async function pageTenant(platform: Platform, tenantId: string | null): Promise<PageTenant | null> {
  const tenant = tenantId ? await findTenant(platform.database.db, tenantId) : undefined;
  if (!tenant) return null;
  const branding = brandingOf(tenant);
  return { ...branding, logoUrl: logoUrlOf(tenant.id, branding) };
}

/**
 * A refusal page is one info line: what was refused, why and for which session (null when none is
 * known). Never the URL, whose token or code is the secret, and no stack: a refusal is the flow
 * working, and anyone can ask for one (issue 46).
 */
function logRefusal(request: FastifyRequest, what: string, sessionId: string | null, reason: string) {
  request.log.info({ sessionId, reason }, `hosted flow refused the ${what}`);
}

const EntryQuery = Type.Object({
  sessionId: Type.Optional(SessionId),
  token: Type.Optional(LinkToken),
});

/** Registers the flow and the tenant's image endpoint; app.ts calls this once. */
export async function registerHostedFlow(app: FastifyInstance, platform: Platform) {
  await app.register(async (scope) => flowScope(scope, platform));
  // The capture check and the live check start the OCR engines and inference threads in this
  // process; they stop with the app (after the pipeline workers, which stop first, in server.ts).
  app.addHook('onClose', async () => {
    await Promise.all([terminateOcrEngine(), closeInferencePool()]);
  });
  // Image URLs of the session detail need the tenant's API key (docs/decisions.md "Data at rest").
  await app.register(async (v1) => {
    requireApiKey(v1, platform);
    registerSessionImageRoutes(v1, platform);
  });
}

function localizedError(request: FastifyRequest, error: AppError) {
  const messages = FLOW_MESSAGES[error.code] ?? FLOW_MESSAGES.InternalError!;
  return {
    error: error.code,
    message: messages[negotiateLanguage(request)],
    messages,
    ...(error.details ? { details: error.details } : {}),
  };
}

async function flowScope(scope: FastifyInstance, platform: Platform) {
  const { config } = platform;
  await scope.register(cookie);
  // Each upload route passes its own limits (multipartParts).
  await scope.register(multipart, {
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 4, fieldSize: 4096, parts: 5, headerPairs: 20 },
  });
  // The form post of /verify/complete (a plain HTML form, no script needed).
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_r, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  // The API's error mapping, worded in the user's language.
  installErrorHandler(scope, localizedError);

  // Personal data and one-time secrets pass through here: never cached, never framed.
  scope.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('text/html')) reply.header('content-security-policy', API_CSP);
    return payload;
  });

  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const hide = { hide: true };

  // A link whose id or token is not of our format cannot be valid: the same page as a wrong token.
  const entry = { schema: { ...hide, querystring: EntryQuery }, attachValidation: true };
  app.get('/verify', entry, async (request, reply) => {
    const language = negotiateLanguage(request);
    const { sessionId, token } = request.query;
    if (request.validationError || !sessionId || !token) {
      logRefusal(request, 'verification link', null, 'malformed_link');
      return sendPage(reply, 410, 'expired', language);
    }
    const outcome = await enterFlow(platform, { sessionId, token }, request.ip);
    if (outcome.kind !== 'entered')
      logRefusal(request, 'verification link', outcome.sessionId, outcome.reason);
    if (outcome.kind === 'expired')
      return sendPage(reply, 410, 'expired', language, await pageTenant(platform, outcome.tenantId));
    if (outcome.kind === 'wrong_ip')
      return sendPage(reply, 403, 'wrongNetwork', language, await pageTenant(platform, outcome.tenantId));
    setFlowCookie(reply, config, outcome.cookieValue);
    return reply.code(303).header('location', '/verify/flow').send();
  });

  // Continue on a phone (phone-handoff.ts): the code's link, opened on the phone, moves the session.
  app.get(
    '/verify/h/:code',
    { schema: { ...hide, params: Type.Object({ code: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const language = negotiateLanguage(request);
      const outcome = await useHandoff(platform, request.params.code);
      if (outcome.kind === 'expired') {
        logRefusal(request, 'hand-off link', outcome.sessionId, outcome.reason);
        return sendPage(reply, 410, 'handoffExpired', language, await pageTenant(platform, outcome.tenantId));
      }
      setFlowCookie(reply, config, outcome.cookieValue);
      return reply.code(303).header('location', '/verify/flow').send();
    },
  );

  // The browser app (web/, built into dist/web): its page here, its files under /verify/assets/.
  await registerFlowAppAssets(scope);
  // A page load whose cookie holds no live session gets the styled page that says what to do.
  app.get('/verify/flow', { schema: hide }, async (request, reply) => {
    const language = negotiateLanguage(request);
    try {
      await loadFlowSession(platform, request);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const session = await sessionOfFlowCookie(platform, request);
      const tenant = await pageTenant(platform, session?.tenantId ?? null);
      const expired = error.code === 'SessionExpired';
      logRefusal(
        request,
        'flow page',
        session?.sessionId ?? null,
        expired ? 'session_expired' : 'no_session',
      );
      if (expired) return sendPage(reply, 410, 'expired', language, tenant);
      return sendPage(reply, 401, 'noSession', language, tenant);
    }
    return sendFlowApp(reply, language);
  });

  // The refusal pages' stylesheet (flow-pages.ts), in the tenant's accent colour when given.
  app.get('/verify/page.css', { schema: hide }, async (request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .send(pageStylesheet((request.query as { accent?: unknown }).accent)),
  );

  // A tenant's logo, from our own origin (the pages' CSP allows no other). The address holds the
  // image's SHA-256, so only the current logo is served and a replaced one is a new address.
  app.get(
    '/verify/logos/:tenantId/:sha256',
    {
      schema: {
        ...hide,
        params: Type.Object({
          tenantId: Type.String({ pattern: '^tn_[A-Za-z0-9]{1,64}$' }),
          sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
        }),
      },
    },
    async (request, reply) => {
      const tenant = await findTenant(platform.database.db, request.params.tenantId);
      const logo = tenant ? brandingOf(tenant).logo : null;
      if (!tenant || !logo || logo.sha256 !== request.params.sha256) throw new AppError('NotFound');
      const bytes = await openBlobStore(platform.config, platform.keyring).getBlob(
        tenantLogoBlobKey(tenant.id, logo.sha256),
      );
      if (!bytes) throw new AppError('NotFound');
      return reply.type(logo.contentType).header('x-content-type-options', 'nosniff').send(bytes);
    },
  );

  app.get('/verify/api/state', { schema: hide }, async (request) =>
    getFlowState(platform, await loadFlowSession(platform, request), negotiateLanguage(request)),
  );

  /** Loads the session and checks the CSRF token: every state-changing route starts here. */
  const mutation = async (request: FastifyRequest, formToken?: string) => {
    const context = await loadFlowSession(platform, request);
    requireCsrfToken(config, request, context, formToken);
    return context;
  };

  app.post('/verify/api/consent', { schema: hide }, async (request, reply) => {
    await giveConsent(platform, await mutation(request));
    return reply.code(204).send();
  });

  app.put(
    '/verify/api/document-type',
    {
      schema: {
        ...hide,
        body: Type.Object(
          { documentType: Type.String({ enum: [...DOCUMENT_TYPES] }) },
          { additionalProperties: false },
        ),
      },
      // CSRF and session before the body is judged: a forged request learns nothing.
      preValidation: async (request) => {
        await mutation(request);
      },
    },
    async (request, reply) => {
      await chooseDocumentType(platform, await mutation(request), request.body.documentType);
      return reply.code(204).send();
    },
  );

  app.post(
    '/verify/api/documents/:side',
    {
      schema: {
        ...hide,
        params: Type.Object({
          side: Type.Union([Type.Literal('front'), Type.Literal('back'), Type.Literal('tilted')]),
        }),
      },
    },
    async (request, reply) => {
      const context = await mutation(request);
      let bytes: Buffer | null = null;
      for await (const part of multipartParts(
        request,
        DOCUMENT_UPLOAD_LIMITS,
        imageTooLarge,
        imageTooLarge,
      )) {
        if (part.type !== 'file') continue;
        // Refused before the file is read: the rest of the body is drained (unread-body.ts).
        if (part.fieldname !== 'image' || bytes) {
          throw new AppError('ValidationFailed', 'Send one image in the form field "image"');
        }
        bytes = await readFile(part, imageTooLarge);
      }
      if (!bytes) throw new AppError('ValidationFailed', 'Send the image in the form field "image"');
      reply.code(201);
      return uploadDocumentImage(
        platform,
        context,
        request.params.side,
        bytes,
        (image, side, chosen, { quality }) =>
          identifyDocumentCapture(image, side, chosen, {
            quality,
            budgetMs: platform.config.captureCheckBudgetMs,
          }),
        checkTiltedCapture,
      );
    },
  );

  // The user's own photos, for the review step's thumbnails: only to the cookie's live session.
  app.get(
    '/verify/api/documents/:side/image',
    {
      schema: {
        ...hide,
        params: Type.Object({
          side: Type.Union([Type.Literal('front'), Type.Literal('back'), Type.Literal('tilted')]),
        }),
      },
    },
    async (request, reply) => {
      const { session } = await loadFlowSession(platform, request);
      const bytes = await readSessionImage(platform, session, request.params.side);
      if (!bytes) throw new AppError('NotFound');
      return reply.type('image/jpeg').header('x-content-type-options', 'nosniff').send(bytes);
    },
  );

  app.post('/verify/api/handoff', { schema: hide }, async (request, reply) => {
    reply.code(201);
    return issueHandoff(platform, await mutation(request));
  });

  // The asking browser follows the progress with its old cookie, which no longer holds the session.
  app.get('/verify/api/handoff', { schema: hide }, async (request) =>
    readHandoffStatus(platform, request.cookies[FLOW_COOKIE]),
  );

  // The IC-chip method (chip-reader.ts): the page asks for a reader hand-off; the reader, holding
  // its code (no cookie: it is another program, often on another device), takes nonces and hands
  // in one reading.
  app.post('/verify/api/chip/reader', { schema: hide }, async (request, reply) => {
    reply.code(201);
    return issueChipReader(platform, await mutation(request));
  });
  const chipCode = Type.Object({ code: Type.String({ maxLength: 64 }) });
  app.get('/verify/chip/:code', { schema: { ...hide, params: chipCode } }, async (request) =>
    describeChipReader(platform, request.params.code),
  );
  app.post('/verify/chip/:code/nonce', { schema: { ...hide, params: chipCode } }, async (request, reply) => {
    reply.code(201);
    return issueChipNonce(platform, request.params.code);
  });
  app.post(
    '/verify/chip/:code/reading',
    {
      schema: { ...hide, params: chipCode, body: ChipReadingBody },
      bodyLimit: CHIP_READING_BODY_LIMIT,
    },
    async (request, reply) => {
      reply.code(201);
      return receiveChipReading(platform, request.params.code, request.body);
    },
  );

  app.post('/verify/api/liveness/challenge', { schema: hide }, async (request, reply) => {
    reply.code(201);
    return issueLivenessChallenge(platform, await mutation(request));
  });

  const attemptsInFlight = new AttemptsInFlight();
  app.post('/verify/api/liveness/attempts', { schema: hide }, async (request) => {
    const context = await mutation(request);
    requireMultipart(request, LIVENESS_UPLOAD_LIMITS);
    const leave = attemptsInFlight.enter(context.session.id);
    let result: Awaited<ReturnType<typeof receiveLivenessAttempt>>;
    try {
      result = await receiveLivenessAttempt(
        platform,
        context,
        multipartParts(request, LIVENESS_UPLOAD_LIMITS, frameTooLarge),
      );
    } finally {
      leave();
    }
    const language = negotiateLanguage(request);
    return {
      ...result,
      messages: result.failures.map((f) => ({
        key: f,
        message: LIVENESS_FAILURE_MESSAGES[f]?.[language] ?? f,
      })),
    };
  });

  app.put(
    '/verify/api/personal-data',
    {
      schema: { ...hide, body: UserInputBody },
      preValidation: async (request) => {
        await mutation(request);
      },
    },
    async (request) => savePersonalData(platform, await mutation(request), request.body),
  );

  app.post('/verify/api/submit', { schema: hide }, async (request) =>
    submitVerification(platform, await mutation(request)),
  );

  // The same as submit, for a plain HTML form: answers 303 to the callback (interface §4.1).
  app.post('/verify/complete', { schema: hide }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const token = typeof body.csrfToken === 'string' ? body.csrfToken : '';
    const { redirectTo } = await submitVerification(platform, await mutation(request, token));
    return reply.code(303).header('location', redirectTo).send();
  });
}
