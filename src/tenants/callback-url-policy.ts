// Which callback URLs a tenant may use (interface §1, §4.1; docs/decisions.md "Environments", "Allow list").
import type { Environment } from '../config.ts';
import { hostRefusal } from '../platform/net/ssrf-guard.ts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/** Why `url` may not be a callback URL (or allow-list prefix) in `env`; undefined when it may. */
export function callbackUrlProblem(url: string, env: Environment): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an http(s) URL';
  if (parsed.username || parsed.password) return 'must not contain credentials';
  if (parsed.hash) return 'must not contain a fragment';
  if (parsed.protocol === 'http:') {
    if (env === 'production') return 'must be https in production';
    if (!LOCAL_HOSTS.has(parsed.hostname))
      return `must be https (http only for localhost or 127.0.0.1 in ${env})`;
  }
  // The webhook's SSRF guard would refuse every delivery to such a host, and the user's browser
  // would be sent into the service's own network: refuse it here, at setup.
  const refusal = hostRefusal(parsed.hostname, env);
  if (refusal !== null) return `must not point to a private or reserved address (${refusal})`;
  return undefined;
}

/**
 * docs/decisions.md: allowed when scheme, host and port are equal and the path starts with the prefix's
 * path at a `/` boundary ("/cb" allows "/cb" and "/cb/x", not "/cbx").
 */
export function isCallbackUrlAllowed(url: string, prefixes: readonly string[]): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  return prefixes.some((prefix) => {
    const allowed = new URL(prefix);
    if (allowed.protocol !== target.protocol || allowed.host !== target.host) return false;
    const base = allowed.pathname;
    if (base === '/' || target.pathname === base) return true;
    return target.pathname.startsWith(base.endsWith('/') ? base : `${base}/`);
  });
}

/** The stored form of a prefix: URL-normalised, without query. */
export function normaliseCallbackPrefix(prefix: string): string {
  const url = new URL(prefix);
  url.search = '';
  return url.toString();
}
