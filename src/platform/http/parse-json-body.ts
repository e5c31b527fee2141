// The JSON body parser for the API: strict UTF-8, bounded nesting, no prototype pollution.
// Fastify's default parser would turn invalid UTF-8 into U+FFFD silently and recurse without bound.
import { AppError } from './app-error.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });
export const MAX_JSON_DEPTH = 32;

/** Deepest nesting of arrays/objects, ignoring brackets inside strings; stops early past `limit`. */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

class ForbiddenKeyError extends Error {}

/** Keys that could reach an object's prototype in careless code are refused outright. */
function refusePrototypeKeys(key: string, value: unknown) {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new ForbiddenKeyError(key);
  return value;
}

export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw new AppError('BadRequest', 'The request body is empty; send a JSON object');
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new AppError('BadRequest', 'The request body is not valid UTF-8');
  }
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new AppError('BadRequest', `The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text, refusePrototypeKeys);
  } catch (error) {
    if (error instanceof ForbiddenKeyError) {
      throw new AppError('BadRequest', `The request body may not contain the key '${error.message}'`);
    }
    throw new AppError('BadRequest');
  }
}
