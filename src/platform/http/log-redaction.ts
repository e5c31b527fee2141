// What the request log may say (issue 46, docs/operations.md "Logs"): no token, hand-off code, API
// key, cookie or personal data in any line. A request is logged as its method, its path with the
// secret segments replaced and its query values dropped (a console search's query is a person's
// name or birth date; a link's is its one-time token), and the caller's address; headers are not
// logged at all. Error objects and messages pass through `redactText`, since Fastify's own
// messages quote the URL ("Reply was already sent … in /verify?sessionId=…&token=…").
//
// These are the serializers and the message hook of the one logger (app.ts); the platform imports
// nothing of mimoto, so the secret shapes are written here, by their published formats.

export const REDACTED = '[redacted]';

/** Paths whose segment after the prefix is a secret: the phone hand-off's one-time code. */
const SECRET_PATH_PREFIXES = ['/verify/h/'];

/**
 * `url` as the log shows it: the path with each secret segment replaced, and each query parameter's
 * name kept but its value replaced (`/verify?sessionId=[redacted]&token=[redacted]`).
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const prefix of SECRET_PATH_PREFIXES) {
    if (path.startsWith(prefix) && path.length > prefix.length) path = `${prefix}${REDACTED}`;
  }
  if (queryAt === -1) return path.slice(0, 500);
  const names = url
    .slice(queryAt + 1)
    .split('&')
    .filter((pair) => pair.length > 0)
    .slice(0, 20)
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      // A name is only the parameter's label: kept when it looks like one, else redacted too.
      return `${/^[A-Za-z0-9_.[\]-]{1,40}$/.test(name) ? name : REDACTED}=${REDACTED}`;
    });
  return `${path.slice(0, 500)}?${names.join('&')}`;
}

/**
 * Secrets by their shape, for free text (an error's message or stack, a log message): the API key
 * (`mmt_live_…`), a bearer credential, the flow and console cookies, a URL's query values and the
 * hand-off path. A value our own code puts in a message is not written there in the first place;
 * this catches what a library quotes.
 */
const TEXT_PATTERNS: [RegExp, string][] = [
  [/\bmmt_(live|test)_[0-9A-Za-z]{6,}/g, `mmt_$1_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`],
  [/\b(mimoto_flow|mimoto_console)=[^\s"';&]+/g, `$1=${REDACTED}`],
  [/\/verify\/h\/[^\s"'?#)]+/g, `/verify/h/${REDACTED}`],
  [/([?&][A-Za-z0-9_.-]{1,40})=[^\s"'&#)]*/g, `$1=${REDACTED}`],
];

export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of TEXT_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
}

/** The logger's `req` serializer: method, redacted URL, the caller's address; never a header. */
export function serializeRequest(request: LoggedRequest) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}

/**
 * The logger's `err` serializer: type, code, status, and the message and stack with the secrets'
 * shapes redacted. No other property of the error is copied (a driver's error may carry the SQL's
 * parameters, a person's name among them).
 */
export function serializeError(error: unknown): {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
} {
  if (!(error instanceof Error)) return { type: typeof error, message: redactText(String(error)), stack: '' };
  const { code, statusCode } = error as Error & { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: redactText(error.message),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    stack: redactText(error.stack ?? ''),
  };
}

/**
 * pino's `logMethod` hook: every string argument of a log call (the message, a format argument)
 * redacted the same way before the line is written.
 */
export function redactLogArguments(
  this: unknown,
  args: unknown[],
  method: (...args: unknown[]) => void,
): void {
  method.apply(
    this,
    args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)),
  );
}

/** The Fastify logger options: level, destination, and the redaction above. */
export function loggerOptions(level: string, stream?: { write(line: string): void }) {
  return {
    level,
    ...(stream ? { stream } : {}),
    // Belt and braces: pino's own redaction of the header paths, should a serializer ever add them.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: REDACTED,
    },
    serializers: { req: serializeRequest, err: serializeError },
    hooks: { logMethod: redactLogArguments },
  };
}
