// A submitted session built from a committed corpus bundle through the hosted flow's own service
// functions (document upload, consent, personal data, submission — which enqueues the check jobs).
// The live check is recorded as passed with the bundle's selfie as reference image, instead of
// running the liveness verification again (test/liveness covers it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  savePersonalData,
  submitVerification,
  uploadDocumentImage,
} from '../../src/hosted-flow/flow-steps.ts';
import { insertChallenge, recordLivenessAttempt } from '../../src/hosted-flow/hosted-flow-repository.ts';
import { openBlobStore } from '../../src/platform/blobs/index.ts';
import { findSession, recordConsent, setDocumentType, startFlow } from '../../src/sessions/index.ts';
import type { ApiClient } from '../helpers/api-client.ts';
import { CALLBACK_PREFIX } from '../helpers/api-client.ts';
import type { TestPlatform } from '../helpers/test-platform.ts';

const CORPUS = 'test/fixtures/corpus';

interface Sample {
  id: string;
  documentType: string;
  truth: Record<string, string>;
  files: { front: string; back?: string; selfie: string };
}

export function corpusSample(id: string): Sample {
  const manifest = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as {
    samples: Sample[];
  };
  const sample = manifest.samples.find((s) => s.id === id);
  if (!sample) throw new Error(`no corpus sample ${id}`);
  return sample;
}

export async function submitCorpusSession(
  platform: TestPlatform,
  api: ApiClient,
  sampleId: string,
  options: {
    preRegisteredInfo?: Record<string, string>;
    loseReferenceImage?: boolean;
    failLiveness?: boolean;
    /** Uploaded as the document front instead of the bundle's (a file under the repository). */
    frontFile?: string;
    /** Where the webhook goes (a real receiver in the browser test); the allow-listed default otherwise. */
    callbackUrl?: string;
  } = {},
): Promise<string> {
  const sample = corpusSample(sampleId);
  const created = await api.createSession({
    callbackUrl: options.callbackUrl ?? `${CALLBACK_PREFIX}/done`,
    clientIpAddress: '203.0.113.7',
    ...(options.preRegisteredInfo ? { preRegisteredInfo: options.preRegisteredInfo } : {}),
  });
  if (created.statusCode !== 201) throw new Error(`create session: ${created.body}`);
  const { sessionId } = created.json() as { sessionId: string };
  const db = platform.database.db;
  const now = platform.now();
  // A person takes a while: keeps the capture-timing fraud signal quiet.
  await startFlow(db, sessionId, {
    cookieHash: `test-${sessionId}`,
    now: new Date(now.getTime() - 120_000),
    expiresAt: new Date(now.getTime() + 900_000),
    firstAccessIp: '127.0.0.1',
  });
  await recordConsent(db, sessionId, now);
  await setDocumentType(db, sessionId, sample.documentType, now);
  const context = async () => ({ session: (await findSession(db, sessionId))!, cookieValue: '' });
  const read = (file: string) => readFileSync(path.join(CORPUS, file));
  const front = options.frontFile ? readFileSync(options.frontFile) : read(sample.files.front);
  await uploadDocumentImage(platform, await context(), 'front', front);
  if (sample.files.back)
    await uploadDocumentImage(platform, await context(), 'back', read(sample.files.back));

  const referenceBlob = `liveness/${sessionId}/reference.jpg`;
  await openBlobStore(platform.config, platform.keyring).putBlob(referenceBlob, read(sample.files.selfie));
  const challengeId = `lc_${sessionId}`;
  await insertChallenge(db, {
    id: challengeId,
    sessionId,
    steps: ['center'],
    issuedAt: new Date(now.getTime() - 10_000),
    expiresAt: new Date(now.getTime() + 60_000),
  });
  await db.updateTable('liveness_challenges').set({ used_at: now }).where('id', '=', challengeId).execute();
  // A photo held up to the camera fails its last attempt: frames are kept, no reference image.
  await recordLivenessAttempt(db, {
    sessionId,
    challengeId,
    passed: !options.failLiveness,
    confidence: options.failLiveness ? 0.2 : 0.96,
    failures: options.failLiveness ? ['pose_order_mismatch'] : [],
    frameBlobs: [referenceBlob],
    outcome: options.failLiveness
      ? { status: 'failed', referenceBlob: null }
      : { status: 'success', referenceBlob },
    now,
  });
  const t = sample.truth;
  await savePersonalData(platform, await context(), {
    lastName: t.lastName!,
    firstName: t.firstName!,
    lastNameKana: t.lastNameKana!,
    firstNameKana: t.firstNameKana!,
    birthDate: t.birthDate!,
    address: t.address!,
  });
  // A lost blob (a storage fault): the checks that need it cannot succeed, however often retried.
  if (options.loseReferenceImage)
    await openBlobStore(platform.config, platform.keyring).deleteBlob(referenceBlob);
  await submitVerification(platform, await context());
  return sessionId;
}
