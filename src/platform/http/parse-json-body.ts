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
class IllFormedStringError extends Error {}
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string is Unicode text PostgreSQL's text and jsonb accept (no lone surrogate). */
export const isWellFormedText = (text: string): boolean => !LONE_SURROGATE.test(text);

/**
 * Keys that could reach an object's prototype in careless code are refused outright; so is a key or
 * string holding a lone UTF-16 surrogate (`"\ud800"` is valid JSON but no Unicode text, and
 * PostgreSQL's text and jsonb refuse it), here once for every route and field.
 */
function refuseUnsafeKeysAndStrings(key: string, value: unknown) {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new ForbiddenKeyError(key);
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value)))
    throw new IllFormedStringError();
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
    return JSON.parse(text, refuseUnsafeKeysAndStrings);
  } catch (error) {
    if (error instanceof ForbiddenKeyError) {
      throw new AppError('BadRequest', `The request body may not contain the key '${error.message}'`);
    }
    if (error instanceof IllFormedStringError) {
      throw new AppError(
        'BadRequest',
        'The request body holds a string that is not well-formed Unicode (a lone UTF-16 surrogate)',
      );
    }
    throw new AppError('BadRequest');
  }
}
