// GET /v1/verification-sessions/{sessionId}/images/{kind} (docs/decisions.md "Data at rest": image URLs
// in the detail point at API paths that need the tenant's API key; interface §2.4, §2.5).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { apiCaller } from '../api-keys/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import { API_KEY_ERRORS, errorResponses, SESSION_ID_ERRORS } from '../platform/http/openapi.ts';
import type { Platform } from '../platform/platform.ts';
import type { SessionRow } from '../sessions/index.ts';
import { loadCallerSession, SessionIdParams } from '../sessions/index.ts';
import { findLastFrameBlobs, listDocuments } from './hosted-flow-repository.ts';

// 'tilted': the thickness capture (tenants/capture-options.ts), for reviewers; not in the detail.
export const IMAGE_KINDS = ['front', 'back', 'tilted', 'liveness-reference'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export const sessionImageUrl = (publicUrl: string, sessionId: string, kind: ImageKind) =>
  `${publicUrl}/v1/verification-sessions/${sessionId}/images/${kind}`;

/** The frames of the last live check attempt are `frame-0`, `frame-1`, … (the console shows them). */
export type SessionImageName = ImageKind | `frame-${number}`;

/** The names of the images a session has, in display order. */
export async function listSessionImages(
  platform: Platform,
  session: SessionRow,
): Promise<SessionImageName[]> {
  const documents = await listDocuments(platform.database.db, session.id);
  const frames = (await findLastFrameBlobs(platform.database.db, session.id)) ?? [];
  return [
    ...(['front', 'back', 'tilted'] as const).filter((side) => documents.some((d) => d.side === side)),
    ...(session.liveness_reference_blob ? (['liveness-reference'] as const) : []),
    ...frames.map((_, i) => `frame-${i}` as const),
  ];
}

/** The decrypted JPEG bytes of one image, or null when the session has none by that name. */
export async function readSessionImage(
  platform: Platform,
  session: SessionRow,
  name: SessionImageName,
): Promise<Buffer | null> {
  let key: string | null = null;
  if (name === 'liveness-reference') {
    key = session.liveness_reference_blob;
  } else if (name.startsWith('frame-')) {
    const frames = await findLastFrameBlobs(platform.database.db, session.id);
    key = frames?.[Number(name.slice('frame-'.length))] ?? null;
  } else {
    const documents = await listDocuments(platform.database.db, session.id);
    key = documents.find((d) => d.side === name)?.blob_key ?? null;
  }
  return key ? openBlobStore(platform.config, platform.keyring).getBlob(key) : null;
}

export function registerSessionImageRoutes(fastify: FastifyInstance, platform: Platform) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/v1/verification-sessions/:sessionId/images/:kind',
    {
      schema: {
        tags: ['sessions'],
        operationId: 'getSessionImage',
        summary: 'A document image or the liveness reference image (JPEG)',
        security: [{ bearerAuth: [] }],
        params: Type.Object({
          sessionId: SessionIdParams.properties.sessionId,
          kind: Type.String({ enum: [...IMAGE_KINDS] }),
        }),
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'image/jpeg bytes' }),
          ...errorResponses(...API_KEY_ERRORS, ...SESSION_ID_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const session = await loadCallerSession(
        platform.database.db,
        apiCaller(request),
        request.params.sessionId,
      );
      const bytes = await readSessionImage(platform, session, request.params.kind as ImageKind);
      if (!bytes) throw new AppError('NotFound', 'No such image for this session');
      return reply.type('image/jpeg').header('cache-control', 'no-store').send(bytes);
    },
  );
}
