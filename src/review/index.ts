// Manual review (issue 8, docs/console-api.md): the review service shared by the console and the
// tenant API, review claims, the review queue, session search and the tenant blacklist.
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/platform.ts';

/** `POST /v1/verification-sessions/{sessionId}/review`, registered inside the API-key scope. */
export function registerReviewApiRoutes(_v1: FastifyInstance, _platform: Platform): void {}

/** The review, session and blacklist routes, registered by the console inside its signed-in scope. */
export function registerReviewConsoleRoutes(_scope: FastifyInstance, _platform: Platform): void {}
