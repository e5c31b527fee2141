import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { verifyWebhookSignature } from '../../src/index.ts';

const secret = 'whsec_receiver_test';
const body = Buffer.from('{"event":"verification.rejected","verificationId":"vs_X","note":"日本"}', 'utf8');
// Computed independently of the code under test.
const goodHeader = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

test('accepts the signature of the exact raw body (Buffer or the same text)', () => {
  assert.equal(verifyWebhookSignature(body, goodHeader, secret), true);
  assert.equal(verifyWebhookSignature(body.toString('utf8'), goodHeader, secret), true);
  assert.equal(verifyWebhookSignature(new Uint8Array(body), goodHeader, secret), true);
});

test('accepts the RFC 4231 test case 2 vector', () => {
  const header = 'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
  assert.equal(verifyWebhookSignature('what do ya want for nothing?', header, 'Jefe'), true);
});

test('rejects re-serialised JSON (whitespace differs from the raw bytes)', () => {
  const reserialised = JSON.stringify(JSON.parse(body.toString('utf8')), null, 1);
  assert.equal(verifyWebhookSignature(reserialised, goodHeader, secret), false);
});

test('rejects a signature made with another secret', () => {
  const other = `sha256=${createHmac('sha256', 'another').update(body).digest('hex')}`;
  assert.equal(verifyWebhookSignature(body, other, secret), false);
});

test('rejects a tampered body', () => {
  const tampered = Buffer.from(body);
  tampered[10] = tampered[10]! ^ 1;
  assert.equal(verifyWebhookSignature(tampered, goodHeader, secret), false);
});

test('rejects a header that is one hex digit short or long (length mismatch)', () => {
  assert.equal(verifyWebhookSignature(body, goodHeader.slice(0, -1), secret), false);
  assert.equal(verifyWebhookSignature(body, `${goodHeader}0`, secret), false);
});

test('rejects a header without the sha256= prefix or with another algorithm name', () => {
  assert.equal(verifyWebhookSignature(body, goodHeader.slice('sha256='.length), secret), false);
  assert.equal(verifyWebhookSignature(body, goodHeader.replace('sha256=', 'sha1='), secret), false);
  assert.equal(verifyWebhookSignature(body, goodHeader.replace('sha256=', 'SHA256='), secret), false);
});

test('returns false, without throwing, on missing or garbage inputs', () => {
  const garbage: unknown[] = [
    undefined,
    null,
    '',
    'sha256=',
    'sha256=zz',
    42,
    {},
    ['a', 'b'],
    [],
    `sha256=${'g'.repeat(64)}`,
  ];
  for (const header of garbage) {
    assert.equal(verifyWebhookSignature(body, header as string, secret), false, String(header));
  }
  assert.equal(verifyWebhookSignature({ parsed: true } as unknown as string, goodHeader, secret), false);
  assert.equal(verifyWebhookSignature(undefined as unknown as string, goodHeader, secret), false);
  assert.equal(verifyWebhookSignature(body, goodHeader, undefined as unknown as string), false);
});

test('an empty secret never verifies, even against a signature keyed with the empty secret', () => {
  const emptyKeyed = `sha256=${createHmac('sha256', '').update(body).digest('hex')}`;
  assert.equal(verifyWebhookSignature(body, emptyKeyed, ''), false);
});

test('a single-element header array (as some frameworks give) is read like the string', () => {
  assert.equal(verifyWebhookSignature(body, [goodHeader], secret), true);
  assert.equal(verifyWebhookSignature(body, [goodHeader, goodHeader], secret), false);
});
