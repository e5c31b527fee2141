// The IC-chip method end to end (issue 44 "Done when"): a session created through the API with
// verificationMethods ["ic_chip"] is completed through the hosted flow — consent, the reader
// hand-off, a test reader client reading the software card (BAC, the files, Active Authentication
// over the nonce the service issued), the live check, the personal data, submit — then the real
// pipeline workers decide on real PGlite, and the webhook reaches a real receiver on 127.0.0.1,
// signed, saying what was verified. A tampered data group, a wrong signer, an untrusted CSCA and a
// cloned chip are each rejected with their reason. The live check is recorded as passed with a
// corpus selfie (as test/pipeline/submitted-session.ts does; test/liveness covers it); the chip's
// face (DG2) is a JPEG 2000 encoded at test time from another photo of the same synthetic person.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import sharp from 'sharp';
import { terminateOcrEngine } from '../../src/checks/ocr/ocr-engine.ts';
import { encodeJpeg2000 } from '../../src/chip/index.ts';
import { insertChallenge, recordLivenessAttempt } from '../../src/hosted-flow/hosted-flow-repository.ts';
import { type PipelineWorkers, startPipelineWorkers } from '../../src/pipeline/index.ts';
import { openBlobStore } from '../../src/platform/blobs/index.ts';
import { type DeliveryWorker, startWebhookDeliveryWorker } from '../../src/webhooks/index.ts';
import { ApiClient, createTestTenant, type TestTenant } from '../helpers/api-client.ts';
import { ChipReaderClient, type ReaderHandoff } from '../helpers/chip/reader-client.ts';
import { SoftwareCard } from '../helpers/chip/software-card.ts';
import { buildTestDocument, type TestDocument } from '../helpers/chip/test-document.ts';
import { createCsca, createDocumentSigner, type TestAuthority } from '../helpers/chip/test-pki.ts';
import { createTestPlatform, type TestPlatform } from '../helpers/test-platform.ts';
import { FlowClient } from '../hosted-flow/flow-helpers.ts';
import { signatureIsValid, waitFor } from '../webhooks/event-fixture.ts';
import { type LocalReceiver, startLocalReceiver } from '../webhooks/local-receiver.ts';

const PERSON = 'test/fixtures/corpus/passport-genuine-0';

let platform: TestPlatform;
let tenant: TestTenant;
let api: ApiClient;
let workers: PipelineWorkers;
let delivery: DeliveryWorker;
let receiver: LocalReceiver;
let csca: TestAuthority;
let ds: TestAuthority;
let face: Buffer;
let genuine: TestDocument;
let validatePayload: (value: unknown) => boolean;

before(async () => {
  csca = createCsca();
  ds = createDocumentSigner(csca);
  const dir = mkdtempSync(path.join(tmpdir(), 'mimoto-chip-'));
  const trustStore = path.join(dir, 'csca.pem');
  writeFileSync(trustStore, csca.pem);
  platform = await createTestPlatform({
    supervise: true,
    env: { MIMOTO_DATA_DIR: dir, MIMOTO_CHIP_CSCA_FILES: trustStore },
  });
  receiver = await startLocalReceiver((_req, res) => res.writeHead(200).end('ok'));
  tenant = await createTestTenant(platform, [receiver.url('/')]);
  api = await ApiClient.start(platform, tenant.apiKey);
  // The payload schema as a tenant gets it, checked by an independent validator.
  const schema = (await api.app.inject({ method: 'GET', url: '/schemas/webhook-payload.json' })).json();
  validatePayload = new Ajv({ strict: false, allErrors: true }).compile(schema);
  workers = await startPipelineWorkers(platform, { pollingIntervalSeconds: 0.5, warmUp: false });
  delivery = startWebhookDeliveryWorker(platform, {
    pollIntervalMs: 50,
    timeoutMs: 2_000,
    retrySchedule: { offsetsMs: [150, 300], minGapMs: 0 },
    random: () => 0.5,
  });
  // The chip's portrait: another capture of the person whose selfie is the live check's, as a
  // passport photo (3:4), JPEG 2000 as ISO/IEC 19794-5 allows and many issuers write.
  const { data, info } = await sharp(path.join(PERSON, 'frames/00.jpg'))
    .resize(240, 320, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  face = await encodeJpeg2000(data, { width: info.width, height: info.height });
  genuine = await buildTestDocument({ csca, documentSigner: ds, face, faceFormat: 'jpeg2000' });
});

after(async () => {
  await workers?.stop();
  await delivery?.stop();
  await receiver?.close();
  await api?.app.close();
  await platform?.close();
  await terminateOcrEngine();
});

/** The live check as passed, the corpus selfie its reference image (see the header). */
async function recordLiveCheck(sessionId: string) {
  const db = platform.database.db;
  const now = platform.now();
  const referenceBlob = `liveness/${sessionId}/reference.jpg`;
  await openBlobStore(platform.config, platform.keyring).putBlob(
    referenceBlob,
    readFileSync(path.join(PERSON, 'selfie.jpg')),
  );
  const challengeId = `lc_${sessionId}`;
  await insertChallenge(db, {
    id: challengeId,
    sessionId,
    steps: ['center'],
    issuedAt: new Date(now.getTime() - 10_000),
    expiresAt: new Date(now.getTime() + 60_000),
  });
  await db.updateTable('liveness_challenges').set({ used_at: now }).where('id', '=', challengeId).execute();
  await recordLivenessAttempt(db, {
    sessionId,
    challengeId,
    passed: true,
    confidence: 0.96,
    failures: [],
    frameBlobs: [referenceBlob],
    outcome: { status: 'success', referenceBlob },
    now,
  });
  // A person takes a while: keeps the capture-timing fraud signal quiet.
  await db
    .updateTable('verification_sessions')
    .set({ link_used_at: new Date(now.getTime() - 120_000) })
    .where('id', '=', sessionId)
    .execute();
}

let sessions = 0;
/** A chip session through the hosted flow and the reader, submitted; its webhook path. */
async function completeChipSession(card: SoftwareCard, doc: TestDocument) {
  const hook = `/hook/${++sessions}`;
  const t = { platform, api, tenant };
  const flow = await FlowClient.enter(t, {
    callbackUrl: receiver.url(hook),
    verificationMethods: ['ic_chip'],
    preRegisteredInfo: { lastName: 'YAMADA', firstName: 'HANAKO', birthDate: '1990-01-15' },
  });
  const before = (await flow.state()).json();
  assert.deepEqual(before.verificationMethods, ['ic_chip']);
  assert.equal(before.steps.chip, false);
  assert.equal((await flow.send('POST', '/verify/api/consent')).statusCode, 204);

  const handoff = await flow.send('POST', '/verify/api/chip/reader');
  assert.equal(handoff.statusCode, 201, handoff.body);
  const reader = handoff.json() as ReaderHandoff;
  const client = new ChipReaderClient(api.app, reader.url);
  const { response } = await client.readAndSend(card, doc.access);
  assert.equal(response.statusCode, 201, response.body);
  assert.equal((await flow.state()).json().steps.chip, true);

  await recordLiveCheck(flow.sessionId);
  const personal = await flow.send('PUT', '/verify/api/personal-data', {
    lastName: 'YAMADA',
    firstName: 'HANAKO',
    lastNameKana: 'ヤマダ',
    firstNameKana: 'ハナコ',
    birthDate: '1990-01-15',
    address: '東京都千代田区千代田1-1',
  });
  assert.equal(personal.statusCode, 200, personal.body);
  const submitted = await flow.send('POST', '/verify/api/submit');
  assert.equal(submitted.statusCode, 200, submitted.body);
  return { sessionId: flow.sessionId, hook, reader };
}

async function decided(sessionId: string) {
  return waitFor(
    'the decision',
    async () => {
      const detail = (await api.getSession(sessionId)).json();
      if (detail.status === 'failed') throw new Error(`session failed: ${JSON.stringify(detail)}`);
      return detail.verification?.decision ? detail : undefined;
    },
    180_000,
  );
}

async function webhookTo(hook: string) {
  const request = await waitFor('the webhook', () => receiver.received.find((r) => r.url === hook), 30_000);
  assert.ok(signatureIsValid(request.body, request.headers, tenant.webhookSecret), 'signed');
  const payload = JSON.parse(request.body.toString('utf8'));
  assert.ok(validatePayload(payload), JSON.stringify((validatePayload as { errors?: unknown }).errors));
  return { headers: request.headers, payload };
}

describe('a chip session through the hosted flow and a reader', () => {
  test('the page hands off to a reader: which card, what opens it, a QR code and a deep link', async () => {
    const { reader } = await (async () => {
      const t = { platform, api, tenant };
      const flow = await FlowClient.enter(t, {
        callbackUrl: receiver.url('/hook/handoff'),
        verificationMethods: ['ic_chip', 'image'],
      });
      await flow.send('POST', '/verify/api/consent');
      const res = await flow.send('POST', '/verify/api/chip/reader');
      return { reader: res.json() as ReaderHandoff };
    })();
    assert.deepEqual(reader.document, { kind: 'icao_emrtd', documentType: 'passport', access: 'mrz' });
    assert.match(reader.url, /^http:\/\/127\.0\.0\.1:8080\/verify\/chip\/[A-Za-z0-9]{32}$/);
    assert.equal(reader.deepLink, `mimoto-chip://read?url=${encodeURIComponent(reader.url)}`);
    assert.match(reader.qrSvg, /^<svg/);
    const described = await new ChipReaderClient(api.app, reader.url).describe();
    assert.equal(described.statusCode, 200);
    assert.equal(described.json().readingUrl, `${reader.url}/reading`);
  });

  test('a genuine chip is approved, and the webhook says what was verified; no image check ran', async (t) => {
    const { sessionId, hook } = await completeChipSession(new SoftwareCard(genuine), genuine);
    const detail = await decided(sessionId);
    assert.equal(detail.verification.status, 'approved', JSON.stringify(detail.verification));
    assert.equal(detail.verification.decision.reason, 'all_checks_passed');
    assert.equal(detail.verification.decision.metadata.verificationMethod, 'ic_chip');
    assert.equal(detail.verificationMethod, 'ic_chip');
    assert.equal(detail.documentType, 'passport');
    assert.equal(detail.ocrResult, undefined, 'no OCR on a chip session');
    assert.deepEqual(Object.keys(detail.verification.results).sort(), [
      'faceMatch',
      'fraudSignalAnalysis',
      'icChip',
      'selfieSpoofCheck',
    ]);
    assert.equal(detail.verification.userInputMatch, true);
    assert.deepEqual(detail.verification.preRegisteredInfoMatch, {
      lastName: true,
      firstName: true,
      birthDate: true,
    });

    const { headers, payload } = await webhookTo(hook);
    assert.equal(headers['x-service-event'], 'verification.approved');
    assert.equal(payload.verificationId, sessionId);
    assert.equal(payload.decision.reason, 'all_checks_passed');
    assert.equal(payload.results.ocr, undefined);
    assert.equal(payload.results.documentSpoofCheck, undefined);
    const chip = payload.results.icChip;
    assert.equal(chip.method, 'ic_chip');
    assert.equal(chip.verified, true);
    assert.deepEqual(chip.checks, {
      signature: true,
      chain: true,
      dataGroups: { '1': true, '2': true, '15': true },
      antiClone: 'active_authentication',
      revocation: 'not_checked',
    });
    assert.deepEqual(chip.reasons, []);
    assert.deepEqual(chip.payload, { lastName: 'YAMADA', firstName: 'HANAKO', birthDate: '1990-01-15' });
    assert.equal(chip.faceFormat, 'jpeg2000');
    // The chip's JPEG 2000 face was decoded and compared with the selfie: the same person.
    assert.equal(payload.results.faceMatch.status, 'success');
    t.diagnostic(
      `faceMatch similarity, JPEG 2000 chip face vs selfie: ${payload.results.faceMatch.similarity}`,
    );
    assert.equal(
      payload.results.faceMatch.isSamePerson,
      true,
      `similarity ${payload.results.faceMatch.similarity}`,
    );
  });

  test("a genuine chip of someone else: verified, but its face is not the selfie's — rejected face_mismatch", async (t) => {
    // Another synthetic person's capture as the chip's portrait, on a chip the trusted CSCA vouches for.
    const { data, info } = await sharp('test/fixtures/corpus/drivers_license-genuine-0/frames/00.jpg')
      .resize(240, 320, { fit: 'cover' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const otherFace = await encodeJpeg2000(data, { width: info.width, height: info.height });
    const doc = await buildTestDocument({
      csca,
      documentSigner: ds,
      face: otherFace,
      faceFormat: 'jpeg2000',
    });
    const { sessionId, hook } = await completeChipSession(new SoftwareCard(doc), doc);
    const detail = await decided(sessionId);
    assert.equal(detail.verification.results.icChip.verified, true);
    assert.equal(detail.verification.status, 'rejected', JSON.stringify(detail.verification.decision));
    assert.equal(detail.verification.decision.reason, 'face_mismatch');
    const { payload } = await webhookTo(hook);
    assert.equal(payload.results.faceMatch.isSamePerson, false);
    t.diagnostic(
      `faceMatch similarity, another person's chip face vs selfie: ${payload.results.faceMatch.similarity}`,
    );
  });

  const refusals: [string, () => Promise<{ card: SoftwareCard; doc: TestDocument }>, string][] = [
    [
      'a tampered data group',
      async () => {
        const doc = await buildTestDocument({
          csca,
          documentSigner: ds,
          face,
          faceFormat: 'jpeg2000',
          tamperDataGroup1: true,
        });
        return { card: new SoftwareCard(doc), doc };
      },
      'chip_data_group_hash_mismatch',
    ],
    [
      'a wrong signer',
      async () => {
        const doc = await buildTestDocument({
          csca,
          documentSigner: ds,
          face,
          faceFormat: 'jpeg2000',
          wrongSigner: true,
        });
        return { card: new SoftwareCard(doc), doc };
      },
      'chip_signature_invalid',
    ],
    [
      'an untrusted CSCA',
      async () => {
        const doc = await buildTestDocument({
          csca: createCsca('Elsewhere CSCA (test)'),
          face,
          faceFormat: 'jpeg2000',
        });
        return { card: new SoftwareCard(doc), doc };
      },
      'chip_chain_untrusted',
    ],
    [
      'a cloned chip',
      async () => ({ card: SoftwareCard.clone(genuine), doc: genuine }),
      'chip_clone_suspected',
    ],
  ];
  for (const [name, make, reason] of refusals) {
    test(`${name} is rejected with ${reason}, in the detail and the webhook`, async () => {
      const { card, doc } = await make();
      const { sessionId, hook } = await completeChipSession(card, doc);
      const detail = await decided(sessionId);
      assert.equal(detail.verification.status, 'rejected', JSON.stringify(detail.verification.decision));
      assert.equal(detail.verification.decision.reason, reason);
      assert.equal(detail.verification.results.icChip.verified, false);
      assert.ok(detail.verification.results.icChip.reasons.includes(reason));
      const { headers, payload } = await webhookTo(hook);
      assert.equal(headers['x-service-event'], 'verification.rejected');
      assert.equal(payload.decision.reason, reason);
      assert.equal(payload.decision.metadata.verificationMethod, 'ic_chip');
      assert.equal(typeof payload.decision.metadata.detail, 'string');
    });
  }
});
