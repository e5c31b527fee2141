import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { signWebhookBody } from '../../src/webhooks/sign-webhook.ts';

test('matches the RFC 4231 test case 2 vector (key "Jefe")', () => {
  assert.equal(
    signWebhookBody('what do ya want for nothing?', 'Jefe'),
    'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  );
});

test('matches a vector computed with the openssl CLI over UTF-8 body and UTF-8 secret', () => {
  // printf '%s' '<body>' | openssl dgst -sha256 -hmac 'whsec_テスト_secret' -hex
  const body = '{"event":"verification.approved","verificationId":"vs_01","name":"山田"}';
  const expected = 'sha256=f0fd6a8fd45fa201eaab02cc54e4cda913600741eeb6ca6a66120646c3c9be83';
  assert.equal(signWebhookBody(body, 'whsec_テスト_secret'), expected);
  assert.equal(signWebhookBody(Buffer.from(body, 'utf8'), 'whsec_テスト_secret'), expected);
});

test('the header value is the literal prefix plus 64 lowercase hex digits', () => {
  const value = signWebhookBody(Buffer.from([0, 255, 10]), 's');
  assert.match(value, /^sha256=[0-9a-f]{64}$/);
  const independent = createHmac('sha256', 's')
    .update(Buffer.from([0, 255, 10]))
    .digest('hex');
  assert.equal(value, `sha256=${independent}`);
});

test('a different secret or a one-byte change of the body gives a different signature', () => {
  const base = signWebhookBody('{"a":1}', 'secret');
  assert.notEqual(signWebhookBody('{"a":1}', 'secret2'), base);
  assert.notEqual(signWebhookBody('{"a":2}', 'secret'), base);
  assert.notEqual(signWebhookBody('{"a":1} ', 'secret'), base);
});
