// `mimoto inspect` and a check added as its folder and its registry line only (a definition with
// `run`, on the event loop, no runner written for it): inspect runs it through its definition when
// the subcommand has the inputs it declares and the results it waits for, and says why not
// otherwise. The checks are declared here, as a new folder's definition.ts would declare them, and
// handed to the command beside the registry's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { CHECKS, defineCheck } from '../../src/checks/index.ts';
import { inspectRegisteredChecks } from '../../src/main/inspect.ts';
import { inspectOutput } from '../../src/main/inspect-command.ts';

const CORPUS = path.resolve('test/fixtures/corpus');
const file = (p: string) => path.join(CORPUS, p);

/** Reads the document photos, the type chosen, the thresholds and both document checks' results. */
const documentEcho = defineCheck({
  id: 'documentEcho',
  version: '0.1.0',
  inputs: ['documentImages', 'documentType', 'thresholds'],
  waitsFor: ['ocr', 'documentSpoofCheck'],
  resultSchema: Type.Object(
    {
      documentType: Type.Union([Type.String(), Type.Null()]),
      frontBytes: Type.Integer(),
      backBytes: Type.Union([Type.Integer(), Type.Null()]),
      minimumAge: Type.Number(),
      lastName: Type.Union([Type.String(), Type.Null()]),
      hasOcrExtras: Type.Boolean(),
      spoofRisk: Type.Union([Type.String(), Type.Null()]),
      day: Type.String(),
    },
    { additionalProperties: false },
  ),
  runsIn: 'eventLoop',
  async run({ inputs, results, now }) {
    const payload = results.ocr.result.payload as { lastName?: string } | undefined;
    return {
      result: {
        documentType: inputs.documentType,
        frontBytes: inputs.documentImages.front.length,
        backBytes: inputs.documentImages.back?.length ?? null,
        minimumAge: Number(inputs.thresholds.minimumAge),
        lastName: payload?.lastName ?? null,
        hasOcrExtras: results.ocr.extras !== undefined && Object.keys(results.ocr.extras).length > 0,
        spoofRisk: (results.documentSpoofCheck.result.risk as string | undefined) ?? null,
        day: now.toISOString().slice(0, 10),
      },
    };
  },
});

/** Waits for documentEcho: run after it, on its result. */
const afterEcho = defineCheck({
  id: 'afterEcho',
  version: '0.1.0',
  inputs: [],
  waitsFor: ['documentEcho'],
  resultSchema: Type.Object({ echoed: Type.String() }, { additionalProperties: false }),
  runsIn: 'eventLoop',
  async run({ results }) {
    return { result: { echoed: String(results.documentEcho.result.lastName) } };
  },
});

/** Reads the selfie and the face comparison: `inspect faces` has them, `inspect document` not. */
const selfieEcho = defineCheck({
  id: 'selfieEcho',
  version: '0.1.0',
  inputs: ['referenceImage'],
  waitsFor: ['faceMatch'],
  resultSchema: Type.Object(
    { referenceBytes: Type.Integer(), similarity: Type.Number() },
    { additionalProperties: false },
  ),
  runsIn: 'eventLoop',
  async run({ inputs, results }) {
    return {
      result: {
        referenceBytes: inputs.referenceImage?.length ?? 0,
        similarity: Number(results.faceMatch.result.similarity),
      },
    };
  },
});

/** Needs what only a session holds. */
const framesCheck = defineCheck({
  id: 'framesCheck',
  version: '0.1.0',
  inputs: ['livenessFrames', 'userInput'],
  waitsFor: [],
  resultSchema: Type.Object({}),
  runsIn: 'eventLoop',
  run: async () => ({ result: {} }),
});

/** A thread check: the pipeline runs it through a runner of its own, inspect cannot. */
const threadCheck = defineCheck({
  id: 'threadCheck',
  version: '0.1.0',
  inputs: ['documentImages'],
  waitsFor: [],
  resultSchema: Type.Object({}),
  runsIn: 'thread',
  run: async () => ({ result: {} }),
});

const REGISTERED = [...CHECKS, documentEcho, afterEcho, selfieEcho, framesCheck, threadCheck];

describe('mimoto inspect and the checks the registry adds', () => {
  it('prints nothing more for the registry as it is', async () => {
    const given = { command: 'inspect document', inputs: {}, results: {}, now: new Date() };
    assert.equal(await inspectRegisteredChecks(given), undefined);
    assert.equal(await inspectRegisteredChecks(given, CHECKS), undefined);
  });

  it('inspect document runs a check declared with run on the document, and lists the others as not run', async () => {
    const front = file('drivers_license-genuine-0/front.jpg');
    const back = file('drivers_license-genuine-0/back.jpg');
    const out = JSON.parse(
      await inspectOutput(
        [
          'document',
          '--type',
          'drivers_license',
          '--front',
          front,
          '--back',
          back,
          '--reference-date',
          '2026-06-01',
          '--json',
        ],
        REGISTERED,
      ),
    );
    assert.deepEqual(Object.keys(out), ['ocr', 'fields', 'mrz', 'documentSpoofCheck', 'checks']);
    assert.deepEqual(Object.keys(out.checks), [
      'documentEcho',
      'afterEcho',
      'selfieEcho',
      'framesCheck',
      'threadCheck',
    ]);
    assert.equal(out.ocr.status, 'success');
    assert.equal(typeof out.ocr.payload.lastName, 'string');
    assert.deepEqual(out.checks.documentEcho, {
      result: {
        documentType: 'drivers_license',
        frontBytes: readFileSync(front).length,
        backBytes: readFileSync(back).length,
        minimumAge: 18,
        lastName: out.ocr.payload.lastName,
        hasOcrExtras: true,
        spoofRisk: out.documentSpoofCheck.risk,
        day: '2026-06-01',
      },
    });
    assert.deepEqual(out.checks.afterEcho, { result: { echoed: out.ocr.payload.lastName } });
    assert.deepEqual(out.checks.selfieEcho, {
      notRun: 'needs referenceImage, which inspect document is not given',
    });
    assert.deepEqual(out.checks.framesCheck, {
      notRun: 'needs livenessFrames, userInput, which inspect document is not given',
    });
    assert.deepEqual(out.checks.threadCheck, {
      notRun: 'runs in the inference threads: only its runner in the pipeline runs it',
    });
  });

  it('inspect faces runs a check on the selfie and the comparison, and tells why the others were not run', async () => {
    const a = file('drivers_license-genuine-0/front.jpg');
    const b = file('drivers_license-genuine-0/selfie.jpg');
    const text = await inspectOutput(['faces', a, b], REGISTERED);
    const lines = text.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^faceMatch: success, similarity (0\.\d{3}) .*same person/);
    const similarity = Number(/similarity (0\.\d{3})/.exec(lines[0] ?? '')?.[1]);
    const selfieLine = lines.find((line) => line.startsWith('selfieEcho: ')) ?? '';
    const selfie = JSON.parse(selfieLine.slice('selfieEcho: '.length));
    assert.equal(selfie.referenceBytes, readFileSync(b).length);
    assert.ok(Math.abs(selfie.similarity - similarity) < 0.0005, `${selfie.similarity} vs ${similarity}`);
    // Without --type FILE_A is a face, not a photo of a document.
    assert.deepEqual(lines.slice(1), [
      'documentEcho: not run (needs documentImages, documentType, which inspect faces is not given)',
      'afterEcho: not run (waits for documentEcho, which was not run)',
      selfieLine,
      'framesCheck: not run (needs livenessFrames, userInput, which inspect faces is not given)',
      'threadCheck: not run (runs in the inference threads: only its runner in the pipeline runs it)',
    ]);
  });
});
