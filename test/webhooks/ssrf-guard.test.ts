import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findForbiddenAddressReason, parseIPv4 } from '../../src/platform/net/classify-ip-address.ts';
import {
  type ResolveHost,
  vetWebhookUrl,
  type WebhookEnvironment,
} from '../../src/platform/net/ssrf-guard.ts';

// A fake DNS: no test here touches the network.
const zone: Record<string, string[]> = {
  'receiver.example.com': ['93.184.216.34'],
  'dual.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'v6only.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
  'metadata.google.internal': ['169.254.169.254'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
  'nat64-public.example.com': ['64:ff9b::5db8:d822'],
  'ula.example.com': ['fd12:3456::1'],
  'cgnat.example.com': ['100.64.0.7'],
  'empty.example.com': [],
};
const resolveHost: ResolveHost = async (hostname) => {
  const answers = zone[hostname];
  if (answers === undefined) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

type Case = [url: string, environment: WebhookEnvironment, expected: 'allow' | RegExp, addresses?: string[]];
const cases: Case[] = [
  // public destinations
  ['https://receiver.example.com/hooks/mimoto', 'production', 'allow', ['93.184.216.34']],
  [
    'https://dual.example.com/',
    'production',
    'allow',
    ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  ],
  ['https://v6only.example.com:8443/x', 'production', 'allow', ['2606:2800:220:1:248:1893:25c8:1946']],
  ['https://8.8.8.8/hook', 'production', 'allow', ['8.8.8.8']],
  ['https://172.32.0.1/', 'production', 'allow', ['172.32.0.1']], // just outside 172.16/12
  ['https://100.128.0.1/', 'production', 'allow', ['100.128.0.1']], // just outside 100.64/10
  ['https://[2606:4700::1111]/', 'production', 'allow', ['2606:4700::1111']],
  ['https://nat64-public.example.com/', 'production', 'allow', ['64:ff9b::5db8:d822']],
  // scheme rules
  ['http://receiver.example.com/', 'production', /https is required/],
  ['http://receiver.example.com/', 'staging', /https is required/],
  ['http://receiver.example.com/', 'development', /https is required/],
  ['ftp://receiver.example.com/', 'development', /scheme ftp: is not allowed/],
  ['file:///etc/passwd', 'development', /scheme file:/],
  ['not a url', 'production', /not a valid URL/],
  ['https://256.0.0.1/', 'production', /not a valid URL/],
  // localhost: allowed outside production only, and pinned to 127.0.0.1
  ['http://localhost:3000/hook', 'development', 'allow', ['127.0.0.1']],
  ['http://127.0.0.1:8080/hook', 'staging', 'allow', ['127.0.0.1']],
  ['https://localhost/hook', 'staging', 'allow', ['127.0.0.1']],
  ['http://localhost:3000/hook', 'production', /https is required/],
  ['https://localhost/hook', 'production', /loopback/],
  ['https://api.localhost/hook', 'production', /loopback/],
  ['https://127.0.0.1/hook', 'production', /loopback/],
  ['https://127.0.0.2/hook', 'staging', /loopback/], // only the two names of docs/decisions.md
  ['https://[::1]/hook', 'development', /loopback/],
  ['https://10.0.0.5/', 'staging', /private/],
  // odd IPv4 notations of 127.0.0.1 and 169.254.169.254
  ['https://2130706433/', 'production', /loopback/],
  ['https://0177.0.0.1/', 'production', /loopback/],
  ['https://0x7f.1/', 'production', /loopback/],
  ['https://0x7f000001/', 'production', /loopback/],
  ['https://127.1/', 'production', /loopback/],
  ['https://0251.0376.0251.0376/', 'production', /cloud metadata/],
  ['https://2852039166/', 'production', /cloud metadata/],
  // IPv4 special ranges
  ['https://0.0.0.0/', 'production', /unspecified/],
  ['https://10.255.255.255/', 'production', /private/],
  ['https://172.16.0.1/', 'production', /private/],
  ['https://172.31.255.255/', 'production', /private/],
  ['https://192.168.1.1/', 'production', /private/],
  ['https://100.64.0.1/', 'production', /CGNAT/],
  ['https://100.127.255.255/', 'production', /CGNAT/],
  ['https://169.254.0.1/', 'production', /link-local/],
  ['https://169.254.169.254/latest/meta-data/', 'production', /cloud metadata/],
  ['https://100.100.100.200/', 'production', /cloud metadata/],
  ['https://168.63.129.16/', 'production', /cloud metadata/],
  ['https://192.0.0.8/', 'production', /reserved/],
  ['https://192.0.2.1/', 'production', /documentation/],
  ['https://198.51.100.7/', 'production', /documentation/],
  ['https://203.0.113.9/', 'production', /documentation/],
  ['https://198.18.0.1/', 'production', /benchmarking/],
  ['https://198.19.255.255/', 'production', /benchmarking/],
  ['https://224.0.0.1/', 'production', /multicast/],
  ['https://239.255.255.250/', 'production', /multicast/],
  ['https://240.0.0.1/', 'production', /reserved/],
  ['https://255.255.255.255/', 'production', /broadcast/],
  // IPv6 literals, including forms that embed an IPv4 address
  ['https://[::]/', 'production', /unspecified/],
  ['https://[::1]/', 'production', /loopback/],
  ['https://[::ffff:127.0.0.1]/', 'production', /loopback \(IPv4-mapped 127.0.0.1\)/],
  ['https://[::ffff:a9fe:a9fe]/', 'production', /cloud metadata \(IPv4-mapped 169.254.169.254\)/],
  ['https://[::127.0.0.1]/', 'production', /loopback \(IPv4-compatible/],
  ['https://[::8.8.8.8]/', 'production', /reserved \(IPv4-compatible/],
  ['https://[::ffff:0:7f00:1]/', 'production', /loopback/],
  ['https://[64:ff9b::7f00:1]/', 'production', /loopback \(NAT64/],
  ['https://[64:ff9b:1::a00:1]/', 'production', /local-use NAT64/],
  ['https://[2002:7f00:1::]/', 'production', /loopback \(6to4 127.0.0.1\)/],
  ['https://[2002:a9fe:a9fe::1]/', 'production', /cloud metadata \(6to4/],
  ['https://[fd00:ec2::254]/', 'production', /cloud metadata/],
  ['https://[fc00::1]/', 'production', /unique local/],
  ['https://[fe80::1]/', 'production', /link-local/],
  ['https://[fec0::1]/', 'production', /site-local/],
  ['https://[ff02::1]/', 'production', /multicast/],
  ['https://[2001:db8::1]/', 'production', /documentation/],
  ['https://[3fff::1]/', 'production', /documentation/],
  ['https://[2001::1]/', 'production', /Teredo/],
  ['https://[2001:2::1]/', 'production', /benchmarking/],
  ['https://[100::1]/', 'production', /discard-only/],
  ['https://[4000::1]/', 'production', /outside global unicast/],
  // a fully qualified name's trailing dot is the same host
  ['https://localhost./', 'production', /localhost is loopback/],
  ['https://api.localhost./cb', 'production', /api\.localhost is loopback/],
  ['http://localhost.:9/', 'development', 'allow', ['127.0.0.1']],
  // host names whose answers are not public
  ['https://metadata.google.internal/computeMetadata/v1/', 'production', /cloud metadata/],
  ['https://internal.example.com/', 'production', /10\.1\.2\.3: private/],
  ['https://mixed.example.com/', 'production', /192\.168\.0\.10: private/],
  ['https://mapped.example.com/', 'production', /private \(IPv4-mapped 10.0.0.1\)/],
  ['https://nat64.example.com/', 'production', /cloud metadata \(NAT64/],
  ['https://ula.example.com/', 'production', /unique local/],
  ['https://cgnat.example.com/', 'development', /CGNAT/],
  // resolution failures are not SSRF refusals
  ['https://missing.example.com/', 'production', /cannot resolve missing.example.com: ENOTFOUND/],
  ['https://empty.example.com/', 'production', /has no address/],
];

for (const [url, environment, expected, addresses] of cases) {
  test(`${environment} ${url} → ${expected === 'allow' ? 'allowed' : `refused ${expected}`}`, async () => {
    const vetting = await vetWebhookUrl(url, environment, resolveHost);
    if (expected === 'allow') {
      assert.equal(vetting.allowed, true, vetting.allowed ? '' : vetting.reason);
      assert.deepEqual(vetting.allowed && vetting.addresses.map((a) => a.address), addresses);
    } else {
      assert.equal(vetting.allowed, false);
      assert.match(vetting.allowed ? '' : vetting.reason, expected);
    }
  });
}

test('resolution failures are classed dns_error, address refusals ssrf_refused', async () => {
  const missing = await vetWebhookUrl('https://missing.example.com/', 'production', resolveHost);
  const internal = await vetWebhookUrl('https://internal.example.com/', 'production', resolveHost);
  assert.equal(!missing.allowed && missing.errorClass, 'dns_error');
  assert.equal(!internal.allowed && internal.errorClass, 'ssrf_refused');
});

test('IP literals and local development hosts never reach the resolver', async () => {
  const asked: string[] = [];
  const recording: ResolveHost = async (hostname) => {
    asked.push(hostname);
    return [{ address: '93.184.216.34', family: 4 }];
  };
  await vetWebhookUrl('https://8.8.8.8/', 'production', recording);
  await vetWebhookUrl('https://[2606:4700::1111]/', 'production', recording);
  await vetWebhookUrl('http://localhost:9/', 'development', recording);
  await vetWebhookUrl('https://2130706433/', 'production', recording);
  assert.deepEqual(asked, []);
  await vetWebhookUrl('https://receiver.example.com/', 'production', recording);
  assert.deepEqual(asked, ['receiver.example.com']);
});

test('the classifier reads odd IPv4 notations itself, not only through the URL parser', () => {
  for (const notation of [
    '2130706433',
    '0177.0.0.1',
    '0x7f.1',
    '0x7F000001',
    '127.1',
    '0177.1',
    '017700000001',
  ]) {
    assert.deepEqual(Array.from(parseIPv4(notation) ?? []), [127, 0, 0, 1], notation);
    assert.equal(findForbiddenAddressReason(notation), 'loopback', notation);
  }
  assert.equal(parseIPv4('08.0.0.1'), undefined);
  assert.equal(parseIPv4('1.2.3.4.5'), undefined);
  assert.equal(parseIPv4('4294967296'), undefined);
  assert.equal(parseIPv4('1.256.0.0'), undefined);
  assert.equal(findForbiddenAddressReason('fe80::1%eth0'), 'link-local');
  assert.equal(findForbiddenAddressReason('93.184.216.34'), null);
  assert.equal(findForbiddenAddressReason('not-an-ip'), 'not an IP address');
});
