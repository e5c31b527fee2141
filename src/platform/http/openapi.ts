// The OpenAPI 3.1 document is generated from the route schemas (fastify/swagger); error
// responses come from the one error table.
import swagger from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ERRORS, type ErrorCode } from './errors.ts';

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Stable error code (see the error table in /docs)' }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

/**
 * Response schemas for the errors a route can answer with, grouped by status and described by
 * their codes. Typed as empty so that handlers' return types are checked against their success
 * schema alone.
 */
/** The answers that say when to try again (429, 503): their `Retry-After` header, in the document. */
const RETRY_AFTER = {
  'Retry-After': {
    type: 'integer',
    minimum: 1,
    description: 'Seconds to wait before trying again (the SDK waits this long, then retries)',
  },
};

export function errorResponses(...codes: ErrorCode[]): Record<never, never> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      status,
      {
        ...Type.Ref(ErrorBody),
        description: group.map((code) => `${code}: ${ERRORS[code].message}`).join('; '),
        ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      },
    ]),
  );
}

/**
 * What every /v1 route can answer besides its own errors: the key guard, the rate limit, and 503
 * with Retry-After while the database is unreachable (a restart, a fail-over: nothing was done).
 */
export const API_KEY_ERRORS = [
  'Unauthorized',
  'TooManyRequests',
  'ServiceUnavailable',
] as const satisfies ErrorCode[];
/** A route with a JSON body: bad JSON, a body past the limit, another media type, failed validation. */
export const JSON_BODY_ERRORS = [
  'BadRequest',
  'ValidationFailed',
  'PayloadTooLarge',
  'UnsupportedMediaType',
] as const satisfies ErrorCode[];
/** A route naming one session by id: a malformed id, another tenant's, none. */
export const SESSION_ID_ERRORS = ['ValidationFailed', 'Forbidden', 'NotFound'] as const satisfies ErrorCode[];

// biome-ignore lint/suspicious/noExplicitAny: the generated OpenAPI document is untyped JSON.
type Json = Record<string, any>;

/** What the capabilities add to the generated document (app.ts assembles it). */
export interface OpenApiExtras {
  /** Markdown shown above the reference: the guides. */
  description: string;
  /** The OpenAPI 3.1 `webhooks` object and the schemas it names. */
  webhooks: Json;
  schemas: Record<string, Json>;
  /** Per operationId: the names its request and success schemas get under components.schemas. */
  names: Record<string, { request?: string; response?: string }>;
  /** Per operationId: request examples and success-response examples by status. */
  examples: Record<string, { request?: Json; responses?: Record<string, Json> }>;
  /** Operations whose body may be left out. */
  optionalBodies: string[];
  /** Per operationId: the media type of its success response when it is not JSON. */
  mediaTypes: Record<string, string>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The codes errorResponses wrote into a response's description, with an example body each. */
function errorExamples(description: string): Json | undefined {
  const codes = description
    .split('; ')
    .map((part) => part.slice(0, part.indexOf(':')))
    .filter((code): code is ErrorCode => code in ERRORS);
  if (codes.length === 0) return undefined;
  return Object.fromEntries(
    codes.map((code) => [
      code,
      {
        summary: code,
        value: {
          error: code,
          message: ERRORS[code].message,
          ...(code === 'ValidationFailed'
            ? { details: [{ path: '/callbackUrl', message: 'must NOT have fewer than 1 characters' }] }
            : {}),
        },
      },
    ]),
  );
}

/**
 * A response schema with every object open: the API may add fields to what it answers (additive
 * change), so a client validating answers with the document must accept them. Request schemas
 * stay closed: the routes refuse unknown fields.
 */
function openObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openObjects);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, openObjects(value)]),
  );
}

/**
 * Finishes the generated document: named schemas, examples, per-code error examples, the webhooks
 * section, optional bodies and binary responses, which route schemas cannot say.
 */
export function finishOpenApi(document: Json, extras: OpenApiExtras): Json {
  document.info.description = `${document.info.description}\n\n${extras.description}`;
  document.components.schemas = { ...document.components.schemas, ...extras.schemas };
  document.webhooks = extras.webhooks;
  const hoist = (holder: Json, name: string | undefined) => {
    if (!name || !holder?.schema || holder.schema.$ref) return;
    document.components.schemas[name] ??= holder.schema;
    holder.schema = { $ref: `#/components/schemas/${name}` };
  };
  for (const methods of Object.values(document.paths as Json)) {
    for (const method of METHODS) {
      const operation = methods[method];
      if (!operation) continue;
      const id: string = operation.operationId ?? '';
      const names = extras.names[id] ?? {};
      const examples = extras.examples[id] ?? {};
      const json = operation.requestBody?.content?.['application/json'];
      if (json) {
        hoist(json, names.request);
        if (examples.request) json.examples = examples.request;
        if (extras.optionalBodies.includes(id)) operation.requestBody.required = false;
      }
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const content = (response as Json).content;
        if (Number(status) >= 400) {
          const media = content?.['application/json'];
          const byCode = errorExamples((response as Json).description ?? '');
          if (media && byCode) media.examples = byCode;
          continue;
        }
        const mediaType = extras.mediaTypes[id];
        if (mediaType && content) {
          (response as Json).content = { [mediaType]: { schema: { type: 'string', format: 'binary' } } };
          continue;
        }
        const media = content?.['application/json'];
        if (!media) continue;
        media.schema = openObjects(media.schema);
        hoist(media, names.response);
        const example = examples.responses?.[status];
        if (example) media.examples = example;
      }
    }
  }
  return document;
}

export async function registerOpenApi(app: FastifyInstance, publicUrl: string, extras?: OpenApiExtras) {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'mimoto identity verification API',
        version: '1',
        description:
          'Server-to-server API for remote identity verification. Every /v1 request carries ' +
          '`Authorization: Bearer <API key>`. Browser calls fail: the API sends no CORS headers. ' +
          'Section numbers (§) in descriptions are those of the API reference, docs/api-reference.md ' +
          'in the mimoto repository.',
      },
      servers: [{ url: publicUrl }],
      tags: [
        {
          name: 'sessions',
          description: 'Verification sessions: create, read, list, cancel, redact, reprocess, review',
        },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'mmt_…' } },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    ...(extras
      ? {
          transformObject: (documents: object) =>
            finishOpenApi(
              structuredClone((documents as { openapiObject?: Json }).openapiObject ?? {}),
              extras,
            ) as never,
        }
      : {}),
  });
}
