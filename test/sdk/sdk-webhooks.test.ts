// webhooks.verify of @mimoto/node on payloads the service builds and signs: the typed event when
// everything holds, and one error code per way it can fail.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isKnownEvent,
  verifyWebhook,
  type WebhookAutomaticDecision,
  type WebhookEvent,
  WebhookVerificationError,
  webhooks,
} from '../../packages/node/src/index.ts';
import { buildWebhookPayload, serializeWebhookPayload } from '../../src/webhooks/build-webhook-payload.ts';
import { signWebhookBody } from '../../src/webhooks/sign-webhook.ts';

const secret = 'whsec_sdk_test';
const body = serializeWebhookPayload(
  buildWebhookPayload('decision', {
    generation: 1,
    verificationId: 'vs_SDK',
    tenantId: 'tn_SDK',
    decision: {
      status: 'rejected',
      reason: 'face_mismatch',
      metadata: { faceMatchSimilarity: 0.3, threshold: 0.6 },
    },
    results: { faceMatch: { similarity: 0.3, isSamePerson: false, status: 'success' } },
    processedAt: '2026-11-26T10:00:00.000Z',
    reprocess: { requestedAt: '2026-11-26T09:59:00.000Z', reason: 'threshold', previousStatus: 'approved' },
  }),
);
const signature = signWebhookBody(body, secret);
const headers = { 'x-service-signature': signature, 'x-service-event': 'verification.rejected' };

const failsWith = (code: string, run: () => unknown) =>
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof WebhookVerificationError, String(error));
    assert.equal(error.code, code);
    assert.ok(error.message.length > 10, 'a message a person can act on');
    return true;
  });

test('returns the typed event for a genuine delivery, from a Buffer, a string or a Uint8Array', () => {
  for (const raw of [body, body.toString('utf8'), new Uint8Array(body)]) {
    const event: WebhookEvent = webhooks.verify(raw, headers, secret);
    assert.ok(isKnownEvent(event));
    assert.equal(event.event, 'verification.rejected');
    if (event.event === 'verification.rejected') {
      assert.equal(event.decision.reason, 'face_mismatch');
      const automatic = event as WebhookAutomaticDecision;
      assert.equal(automatic.reprocess?.previousStatus, 'approved');
    } else assert.fail('a decision event');
  }
});

test('reads headers from a fetch Headers object and in any case', () => {
  const fetchHeaders = new Headers({ 'X-Service-Signature': signature });
  assert.equal(verifyWebhook(body, fetchHeaders, secret).verificationId, 'vs_SDK');
  assert.equal(verifyWebhook(body, { 'X-SERVICE-SIGNATURE': signature }, secret).verificationId, 'vs_SDK');
});

test('an unknown event kind is returned, not refused: receivers must tolerate it', () => {
  const raw = JSON.stringify({
    event: 'verification.added_later',
    verificationId: 'vs_N',
    tenantId: 'tn',
    more: 1,
  });
  const event = webhooks.verify(raw, { 'x-service-signature': signWebhookBody(raw, secret) }, secret);
  assert.equal(isKnownEvent(event), false);
  assert.equal(event.more, 1);
});

test('one error code for each failure', () => {
  failsWith('missing_secret', () => webhooks.verify(body, headers, ''));
  failsWith('invalid_body', () => webhooks.verify(JSON.parse(body.toString()) as never, headers, secret));
  failsWith('missing_signature', () => webhooks.verify(body, {}, secret));
  failsWith('missing_signature', () => webhooks.verify(body, { 'x-service-signature': [] }, secret));
  failsWith('malformed_signature', () =>
    webhooks.verify(body, { 'x-service-signature': 'sha256=abc' }, secret),
  );
  failsWith('malformed_signature', () =>
    webhooks.verify(body, { 'x-service-signature': signature.replace('sha256=', 'sha1=') }, secret),
  );
  failsWith('malformed_signature', () =>
    webhooks.verify(body, { 'x-service-signature': [signature, signature] }, secret),
  );
  failsWith('signature_mismatch', () => webhooks.verify(body, headers, 'whsec_other'));
  // Parsed and serialised again: other bytes, so the signature does not hold (§6.4 rule 3).
  const reformatted = JSON.stringify(JSON.parse(body.toString()), null, 2);
  failsWith('signature_mismatch', () => webhooks.verify(reformatted, headers, secret));
  const notJson = 'not json';
  failsWith('invalid_json', () =>
    webhooks.verify(notJson, { 'x-service-signature': signWebhookBody(notJson, secret) }, secret),
  );
  for (const raw of ['[1]', 'null', '{"event":"verification.approved"}', '{"event":1,"verificationId":"vs"}'])
    failsWith('invalid_payload', () =>
      webhooks.verify(raw, { 'x-service-signature': signWebhookBody(raw, secret) }, secret),
    );
  failsWith('event_mismatch', () =>
    webhooks.verify(body, { ...headers, 'x-service-event': 'verification.approved' }, secret),
  );
});
