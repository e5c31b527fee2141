// Decides whether a webhook may be sent to a URL, and to which addresses (interface §6.5).
//
// The host is resolved once here and the delivery connects to exactly the addresses returned
// (webhooks/deliver-webhook.ts pins them), so a DNS answer that changes between check and connect (DNS
// rebinding) cannot redirect the request. Every resolved address must be public: one private answer
// among public ones refuses the URL.
//
// Environments (docs/decisions.md "Environments", interface §6.5 rule 5): https only, to public addresses.
// staging and development also allow http or https to `localhost` and `127.0.0.1` (any port), which
// are pinned to 127.0.0.1. The address rules hold in every environment: staging is a deployed network
// too.
import { lookup } from 'node:dns/promises';
import { findForbiddenAddressReason, formatIPv4, parseIPv4, parseIPv6 } from './classify-ip-address.ts';

export type WebhookEnvironment = 'production' | 'staging' | 'development';

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; injected in tests so they never use real DNS. */
export type ResolveHost = (hostname: string) => Promise<VettedAddress[]>;

export type UrlVetting =
  | { allowed: true; url: URL; addresses: VettedAddress[] }
  | { allowed: false; errorClass: 'ssrf_refused' | 'dns_error'; reason: string };

const LOCAL_DEVELOPMENT_HOSTS = new Set(['localhost', '127.0.0.1']);

export const resolveWithSystemDns: ResolveHost = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

export async function vetWebhookUrl(
  rawUrl: string | URL,
  environment: WebhookEnvironment,
  resolveHost: ResolveHost = resolveWithSystemDns,
): Promise<UrlVetting> {
  let url: URL;
  try {
    // The WHATWG parser already rewrites odd IPv4 notations (2130706433, 0177.0.0.1, 0x7f.1, 127.1)
    // to dotted quads; the address checks below parse them again in case one slips through.
    url = new URL(rawUrl);
  } catch {
    return refuse('not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return refuse(`scheme ${url.protocol} is not allowed`);
  const hostname = plainHostname(url.hostname);

  if (isLocalDevelopmentHost(hostname, environment)) {
    return { allowed: true, url, addresses: [{ address: '127.0.0.1', family: 4 }] };
  }
  if (url.protocol !== 'https:') return refuse('https is required');
  const refusal = hostRefusal(hostname, environment);
  if (refusal !== null) return refuse(refusal);

  const literal = toAddressLiteral(hostname);
  let candidates: VettedAddress[];
  if (literal) {
    candidates = [literal];
  } else {
    try {
      candidates = await resolveHost(hostname);
    } catch (error) {
      return {
        allowed: false,
        errorClass: 'dns_error',
        reason: `cannot resolve ${hostname}: ${describe(error)}`,
      };
    }
    if (candidates.length === 0)
      return { allowed: false, errorClass: 'dns_error', reason: `${hostname} has no address` };
  }
  for (const { address } of candidates) {
    const reason = findForbiddenAddressReason(address);
    if (reason !== null) return refuse(`${hostname} resolves to ${address}: ${reason}`);
  }
  return { allowed: true, url, addresses: dedupe(candidates) };
}

const isLocalDevelopmentHost = (hostname: string, environment: WebhookEnvironment) =>
  environment !== 'production' && LOCAL_DEVELOPMENT_HOSTS.has(hostname);

/**
 * The guard's rules that need no DNS: why a webhook may never go to `hostname` (a loopback name, or
 * an address literal in any notation that is private, loopback, link-local, metadata, …), or null.
 * The tenant allow list applies the same rules when a callback URL or prefix is entered
 * (src/tenants/callback-url-policy.ts), so such a URL is refused at setup, not at delivery. Names
 * that need resolving are judged at delivery only, where the answer is pinned.
 */
export function hostRefusal(rawHostname: string, environment: WebhookEnvironment): string | null {
  const hostname = plainHostname(rawHostname);
  if (isLocalDevelopmentHost(hostname, environment)) return null;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return `${hostname} is loopback`;
  const literal = toAddressLiteral(hostname);
  if (!literal) return null;
  const reason = findForbiddenAddressReason(literal.address);
  return reason === null ? null : `${literal.address} is ${reason}`;
}

/**
 * The host as the rules compare it: without IPv6 brackets, lower case, and without the trailing
 * dot of a fully qualified name — `localhost.` is localhost, `api.localhost.` a name under it (the
 * URL parser keeps the dot; the resolver and the hosts file treat both spellings alike).
 */
function plainHostname(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
}

function toAddressLiteral(hostname: string): VettedAddress | undefined {
  const v4 = parseIPv4(hostname);
  if (v4) return { address: formatIPv4(v4), family: 4 };
  if (parseIPv6(hostname)) return { address: hostname, family: 6 };
  return undefined;
}

function refuse(reason: string): UrlVetting {
  return { allowed: false, errorClass: 'ssrf_refused', reason };
}

function dedupe(addresses: VettedAddress[]): VettedAddress[] {
  const seen = new Set<string>();
  return addresses.filter(({ address }) => !seen.has(address) && seen.add(address));
}

function describe(error: unknown): string {
  return error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
}
