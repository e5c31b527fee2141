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
export function errorResponses(...codes: ErrorCode[]): Record<never, never> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      status,
      {
        ...Type.Ref(ErrorBody),
        description: group.map((code) => `${code}: ${ERRORS[code].message}`).join('; '),
      },
    ]),
  );
}

/** What every /v1 route can answer besides its own errors: the key guard and the rate limit. */
export const API_KEY_ERRORS = ['Unauthorized', 'TooManyRequests'] as const satisfies ErrorCode[];
/** A route with a JSON body: bad JSON, a body past the limit, another media type, failed validation. */
export const JSON_BODY_ERRORS = [
  'BadRequest',
  'ValidationFailed',
  'PayloadTooLarge',
  'UnsupportedMediaType',
] as const satisfies ErrorCode[];
/** A route naming one session by id: a malformed id, another tenant's, none. */
export const SESSION_ID_ERRORS = ['ValidationFailed', 'Forbidden', 'NotFound'] as const satisfies ErrorCode[];

export async function registerOpenApi(app: FastifyInstance, publicUrl: string) {
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
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'mmt_…' } },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
}
