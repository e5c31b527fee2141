// Says whether an IP address is one a webhook must never be sent to (interface §6.5), and why.
// Ranges follow the IANA IPv4/IPv6 special-purpose registries plus known cloud metadata endpoints.
// Addresses are parsed to bytes here rather than matched as text, so every notation of the same
// address (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1, 127.1, ::ffff:7f00:1, 64:ff9b::7f00:1,
// 2002:7f00:1::) meets the same rule.
import { isIPv6 } from 'node:net';

type Range = readonly [base: string, prefixLength: number, label: string];

// More specific entries first: the first match names the reason.
const IPV4_FORBIDDEN: readonly Range[] = [
  ['169.254.169.254', 32, 'cloud metadata'], // AWS, GCP, Azure IMDS, OCI, DigitalOcean
  ['100.100.100.200', 32, 'cloud metadata'], // Alibaba Cloud
  ['168.63.129.16', 32, 'cloud metadata'], // Azure wire server (a public address)
  ['192.0.0.192', 32, 'cloud metadata'], // Oracle Cloud (legacy)
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'CGNAT shared address space'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved (IETF protocol assignments)'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved (6to4 relay anycast)'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV6_FORBIDDEN: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fd00:ec2::254', 128, 'cloud metadata'], // AWS IMDS over IPv6
  ['fd20:ce::254', 128, 'cloud metadata'], // GCP metadata over IPv6
  ['64:ff9b:1::', 48, 'private (local-use NAT64)'],
  ['100::', 64, 'reserved (discard-only)'],
  ['2001::', 32, 'reserved (Teredo)'],
  ['2001:2::', 48, 'benchmarking'],
  ['2001:db8::', 32, 'documentation'],
  ['2001::', 23, 'reserved (IETF protocol assignments)'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'reserved (SRv6)'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved (site-local)'],
  ['ff00::', 8, 'multicast'],
];

/**
 * Parses an IPv4 address the way inet_aton and the WHATWG URL parser do: one to four parts, each
 * decimal, octal (leading 0) or hex (0x), the last part filling the remaining bytes. Returns the
 * 4 bytes, or undefined when `text` is not an IPv4 address in any of these notations.
 */
export function parseIPv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length > 4 || parts.some((part) => part === '')) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = /^0x[0-9a-f]*$/i.test(part)
      ? part.length === 2
        ? 0
        : Number.parseInt(part.slice(2), 16)
      : /^0[0-7]+$/.test(part)
        ? Number.parseInt(part.slice(1), 8)
        : /^(0|[1-9][0-9]*)$/.test(part)
          ? Number(part)
          : Number.NaN;
    if (!Number.isSafeInteger(value)) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return undefined;
  const bytes = new Uint8Array(4);
  numbers.forEach((n, i) => {
    bytes[i] = n;
  });
  for (let i = 3, rest = last; i >= numbers.length; i--, rest = Math.floor(rest / 256)) bytes[i] = rest % 256;
  return bytes;
}

/** Parses an IPv6 address (with an optional zone id and an optional dotted IPv4 tail) to 16 bytes. */
export function parseIPv6(text: string): Uint8Array | undefined {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(address)) return undefined;
  let hex = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail) {
    const v4 = parseIPv4(tail[1]!)!;
    hex = `${address.slice(0, -tail[1]!.length)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head = '', rest] = hex.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups =
    rest === undefined
      ? headGroups
      : [...headGroups, ...Array(8 - headGroups.length - restGroups.length).fill('0'), ...restGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

/** The text form Node's net module connects to: dotted quad for IPv4. */
export function formatIPv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}

/**
 * Returns why `address` must not receive a webhook (e.g. "loopback", "cloud metadata"), or null when
 * it is a public unicast address. Anything that is not a parseable address is refused too.
 */
export function findForbiddenAddressReason(address: string): string | null {
  const v4 = parseIPv4(address);
  if (v4) return findIPv4Reason(v4);
  const v6 = parseIPv6(address);
  if (v6) return findIPv6Reason(v6);
  return 'not an IP address';
}

function findIPv4Reason(bytes: Uint8Array): string | null {
  for (const [base, prefix, label] of IPV4_FORBIDDEN) {
    if (hasPrefix(bytes, parseIPv4(base)!, prefix)) return label;
  }
  return null;
}

function findIPv6Reason(bytes: Uint8Array): string | null {
  // Forms that carry an IPv4 address inside: judge the IPv4 address they lead to.
  if (hasPrefix(bytes, parseIPv6('::ffff:0:0')!, 96)) return embedded(bytes.subarray(12), 'IPv4-mapped');
  if (hasPrefix(bytes, parseIPv6('64:ff9b::')!, 96)) return embedded(bytes.subarray(12), 'NAT64');
  if (hasPrefix(bytes, parseIPv6('2002::')!, 16)) return embedded(bytes.subarray(2, 6), '6to4');
  for (const [base, prefix, label] of IPV6_FORBIDDEN) {
    if (hasPrefix(bytes, parseIPv6(base)!, prefix)) return label;
  }
  // ::a.b.c.d (deprecated IPv4-compatible) and ::ffff:0:a.b.c.d (SIIT): never a real receiver.
  if (hasPrefix(bytes, parseIPv6('::')!, 96) || hasPrefix(bytes, parseIPv6('::ffff:0:0:0')!, 96)) {
    return embedded(bytes.subarray(12), 'IPv4-compatible') ?? 'reserved (IPv4-compatible IPv6)';
  }
  // Only 2000::/3 is global unicast; everything else is unassigned or special.
  if ((bytes[0]! & 0xe0) !== 0x20) return 'reserved (outside global unicast 2000::/3)';
  return null;
}

function embedded(v4: Uint8Array, form: string): string | null {
  const reason = findIPv4Reason(v4);
  return reason === null ? null : `${reason} (${form} ${formatIPv4(v4)})`;
}

function hasPrefix(bytes: Uint8Array, base: Uint8Array, prefixLength: number): boolean {
  if (bytes.length !== base.length) return false;
  for (let bit = 0; bit < prefixLength; bit += 8) {
    const mask = prefixLength - bit >= 8 ? 0xff : (0xff << (8 - (prefixLength - bit))) & 0xff;
    if (((bytes[bit / 8]! ^ base[bit / 8]!) & mask) !== 0) return false;
  }
  return true;
}
