// Who is signed in to the console and what their role lets them do (docs/console-api.md "Roles").
// The signed-in scope's hook puts the user on the request; route handlers ask these two functions.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../platform/http/app-error.ts';

export type ConsoleRole = 'operator' | 'tenant_admin' | 'reviewer';
export const CONSOLE_ROLES: readonly ConsoleRole[] = ['operator', 'tenant_admin', 'reviewer'];

export interface ConsoleUser {
  id: string;
  email: string;
  role: ConsoleRole;
  tenantId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    consoleUser?: ConsoleUser;
  }
}

/** The signed-in user of a request inside the console's scope (throws ConsoleLoginRequired). */
export function consoleUser(request: FastifyRequest): ConsoleUser {
  if (!request.consoleUser) throw new AppError('ConsoleLoginRequired');
  return request.consoleUser;
}

/**
 * The signed-in user if their role is one of `roles` and (for tenant roles) `tenantId` is theirs;
 * operators pass any tenant only when 'operator' is in roles. Throws AppError('Forbidden').
 */
export function requireRole(request: FastifyRequest, roles: ConsoleRole[], tenantId?: string): ConsoleUser {
  const user = consoleUser(request);
  if (!roles.includes(user.role)) throw new AppError('Forbidden');
  if (user.role !== 'operator' && tenantId !== undefined && user.tenantId !== tenantId) {
    throw new AppError('Forbidden');
  }
  return user;
}

/**
 * Route options that check the role (and the path's :tenantId) before the body is validated, so a
 * caller outside the route gets 403 and learns nothing from validation errors.
 */
export function onlyRoles(roles: ConsoleRole[]) {
  return {
    preValidation: async (request: FastifyRequest) => {
      requireRole(request, roles, (request.params as { tenantId?: string }).tenantId);
    },
  };
}
