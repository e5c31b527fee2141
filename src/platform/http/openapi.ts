// The OpenAPI 3.1 document is generated from the route schemas (fastify/swagger); error
// responses come from the one error table.
import swagger from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from './errors.ts';

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Stable error code (see the error table in /docs)' }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

/**
 * Response schemas for the given error statuses, described by the codes that use them. Typed as
 * empty so that handlers' return types are checked against their success schema alone.
 */
export function errorResponses(...statuses: number[]): Record<never, never> {
  return Object.fromEntries(
    statuses.map((status) => {
      const codes = Object.entries(ERRORS)
        .filter(([, e]) => e.status === status)
        .map(([code, e]) => `${code}: ${e.message}`);
      return [status, { ...Type.Ref(ErrorBody), description: codes.join('; ') }];
    }),
  );
}

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
