// `mimoto simulate` sessions reach the expected decision with GET detail
// filled. A real server on a loopback port with its pipeline workers; the simulator walks the
// hosted flow at a person's pace. Two personas here (a session costs tens of seconds of
// inference); `npm run demo:personas` runs all five and prints the table.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checksForMethod } from '../../src/checks/index.ts';
import { terminateOcrEngine } from '../../src/checks/ocr/ocr-engine.ts';
import { DEFAULT_THRESHOLDS } from '../../src/decision/index.ts';
import { runPersona } from './run-persona.ts';
import { type SimulateServer, startSimulateServer } from './simulate-server.ts';

describe('simulated personas through the whole pipeline', () => {
  let server: SimulateServer;
  before(async () => {
    server = await startSimulateServer({ pipeline: true });
  });
  after(async () => {
    await server?.close();
    await terminateOcrEngine();
  });

  test('genuine (passport): approved all_checks_passed, with the §6.2 rule 4 metadata and every result filled', async () => {
    const o = await runPersona(server, 'genuine', 2, { documentType: 'passport' });
    assert.deepEqual([o.status, o.reason], ['approved', 'all_checks_passed'], JSON.stringify(o.detail));
    const v = o.detail.verification;
    assert.equal(o.detail.status, 'completed');
    assert.equal(v.status, 'approved');
    // A persona photographs a document: the image method's checks, not the chip's.
    assert.deepEqual(Object.keys(v.results).sort(), [...checksForMethod('image')].sort());
    // Approved: clear of the near-threshold band above the service's default threshold.
    const { faceSimilarityThreshold, faceNearThresholdBand } = DEFAULT_THRESHOLDS;
    assert.ok(
      v.results.faceMatch.similarity >= faceSimilarityThreshold + faceNearThresholdBand,
      `similarity ${v.results.faceMatch.similarity}`,
    );
    assert.equal(v.results.faceMatch.isSamePerson, true);
    assert.equal(v.results.ocr.status, 'success');
    assert.equal(o.detail.ocrResult.payload.birthDate, o.detail.userInput.birthDate);
    // A passport prints no address (its 本籍 line is a prefecture in romaji): the typed address
    // is not held against the person.
    assert.equal(v.userInputMatch, true);
    assert.deepEqual(v.results.fraudSignalAnalysis.signals, []);
    assert.deepEqual(Object.keys(v.decision.metadata).sort(), [
      'documentSpoofRisk',
      'faceMatchSimilarity',
      'livenessConfidence',
      'ocrConfidence',
    ]);
  });

  test('blurry-document: the blurred photo refused at capture with what to fix, retaken, approved', async () => {
    const o = await runPersona(server, 'blurry-document', 1, { documentType: 'my_number_card' });
    const front = o.documentUploads.filter((u) => u.side === 'front');
    assert.equal(front[0]?.accepted, false, JSON.stringify(front));
    assert.ok(front[0]?.refusal, 'the refusal names what to fix');
    assert.equal(front.at(-1)?.accepted, true, JSON.stringify(front));
    assert.deepEqual([o.status, o.reason], ['approved', 'all_checks_passed'], JSON.stringify(o.detail));
  });
});
