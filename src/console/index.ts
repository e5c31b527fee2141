// The console (issue 8, docs/console-api.md): accounts, roles, audit log and the admin routes under
// /console/api, plus the browser app at /console.
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/platform.ts';

export async function registerConsole(_app: FastifyInstance, _platform: Platform): Promise<void> {}
