// The check registry drives what lists the checks: the pipeline's queues, runners and waits, the
// decision's input, `results` of the session detail, the webhook payload and the OpenAPI document,
// and the reprocess queue names. Each assertion compares a derived list with the registry's own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import {
  CHECK_IDS,
  CHECKS,
  type CheckDefinition,
  CheckResultsSchema,
  checkRegistryProblems,
  checkResultsProperties,
  PIPELINE_QUEUES,
} from '../../src/checks/index.ts';
import { CHECK_DEPENDENCIES, RUNNERS, type RunContext } from '../../src/pipeline/check-runners.ts';
import { readPipelineDetail } from '../../src/pipeline/read-pipeline-detail.ts';
import { checkOutcomes } from '../../src/pipeline/run-decision-job.ts';
import { ReprocessBody, SessionDetail } from '../../src/sessions/session.schemas.ts';
import { AutomaticWebhookPayloadSchema } from '../../src/webhooks/webhook-payload.schema.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { decidedSession, storeCheckResult } from '../review/review-fixture.ts';

const ids = CHECKS.map((check) => check.id);

/** A check as a new folder would declare it: not registered, used to see what follows a list. */
const addressCheck = {
  id: 'addressCheck',
  version: '0.1.0',
  inputs: ['userInput'],
  waitsFor: ['ocr'],
  resultSchema: Type.Object({ matches: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  runsIn: 'eventLoop',
} as const satisfies CheckDefinition;

// Checked by tsc (npm run check), not at run time: a runner is handed only what its check's
// definition names. An unused @ts-expect-error fails the typecheck.
export function runnerSeesOnlyItsDeclaredInputs(
  ocr: RunContext<'ocr'>,
  fraud: RunContext<'fraudSignalAnalysis'>,
) {
  // @ts-expect-error the OCR check does not declare the live check's reference image
  ocr.inputs.referenceImage;
  // @ts-expect-error the OCR check waits for no other check
  void ocr.resultOf('faceMatch');
  // fraudSignalAnalysis declares userInput and waits for ocr.
  ocr.inputs.documentImages;
  fraud.inputs.userInput;
  void fraud.resultOf('ocr');
}

describe('check registry', () => {
  it('declares each check once, waiting only for registered checks, without a cycle', () => {
    assert.deepEqual(checkRegistryProblems(CHECKS), []);
    assert.deepEqual(CHECK_IDS, ids);
  });

  it('refuses a wait for an unregistered check', () => {
    assert.deepEqual(checkRegistryProblems([addressCheck]), [
      'addressCheck waits for ocr, which is not registered',
    ]);
  });

  it('refuses checks waiting for each other', () => {
    const a = { ...addressCheck, id: 'a', waitsFor: ['b'] };
    const b = { ...addressCheck, id: 'b', waitsFor: ['a'] };
    assert.deepEqual(checkRegistryProblems([a, b]), ['a waits for itself', 'b waits for itself']);
  });

  it('refuses an id declared twice', () => {
    assert.deepEqual(checkRegistryProblems([...CHECKS, CHECKS[0]]), ['a check id is declared twice']);
  });

  it('gives the pipeline one queue per check, then the decision', () => {
    assert.deepEqual(PIPELINE_QUEUES, [...ids.map((id) => `check.${id}`), 'decision']);
  });

  it('gives the pipeline a runner for each check, written or generic, and its waits from the definitions', () => {
    for (const check of CHECKS) {
      const written = check.id in RUNNERS;
      const generic =
        check.run !== undefined &&
        check.runsIn === 'eventLoop' &&
        !(check.inputs as readonly string[]).includes('tenantHistory');
      assert.ok(written || generic, `${check.id} has neither a runner nor a run the generic runner can call`);
    }
    for (const id of Object.keys(RUNNERS))
      assert.ok(ids.includes(id as never), `a runner for ${id}, which is not registered`);
    for (const check of CHECKS) assert.deepEqual(CHECK_DEPENDENCIES[check.id], check.waitsFor, check.id);
  });

  it("gives the decision one outcome per check, unavailable when the check's row says so", () => {
    const stored = new Map(
      CHECK_IDS.map((id, i) => [
        id,
        {
          row: { status: i === 0 ? 'unavailable' : 'success' },
          envelope: { result: { seen: id }, extras: { extra: i } },
        },
      ]),
    );
    const outcomes = checkOutcomes(stored) as unknown as Record<string, unknown>;
    assert.deepEqual(Object.keys(outcomes), ids);
    assert.deepEqual(outcomes[ids[0]!], { status: 'unavailable', detail: `${ids[0]} unavailable` });
    assert.deepEqual(outcomes[ids[1]!], { status: 'success', result: { seen: ids[1], extra: 1 } });
  });

  it("makes `results` of the webhook payload, the detail and reprocess's queues from the definitions", () => {
    assert.equal(AutomaticWebhookPayloadSchema.properties.results, CheckResultsSchema);
    assert.deepEqual(Object.keys(CheckResultsSchema.properties), ids);
    for (const check of CHECKS) {
      const property = CheckResultsSchema.properties[check.id];
      assert.equal(property.title, check.resultSchema.title, check.id);
    }
    const verification = SessionDetail.properties.verification;
    assert.deepEqual(Object.keys(verification.properties.results.properties), ids);
    assert.deepEqual(ReprocessBody.properties.queues.items.enum, ids);
  });

  it('puts a newly declared check into `results` where its line is', () => {
    const properties = checkResultsProperties([...CHECKS, addressCheck]) as Record<string, unknown>;
    assert.deepEqual(Object.keys(properties), [...ids, 'addressCheck']);
    assert.deepEqual(properties.addressCheck, Type.Optional(addressCheck.resultSchema));
  });

  describe('the session detail', () => {
    const t = useTestApi();

    it("lists the results in the registry's order, not the database's", async () => {
      const sessionId = await decidedSession(t.platform, t.api, 'https://tenant.example/kyc/callback/r');
      for (const id of [...CHECK_IDS].reverse()) await storeCheckResult(t.platform, sessionId, id, {});
      // What the console's case page and the review read; the database lists them by check id.
      const pipeline = await readPipelineDetail(t.platform, sessionId);
      assert.deepEqual(Object.keys(pipeline.results ?? {}), ids);
      const detail = (await t.api.getSession(sessionId)).json();
      assert.deepEqual(Object.keys(detail.verification.results), ids);
    });
  });
});
