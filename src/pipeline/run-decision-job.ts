// The decision job (interface §3.2): exactly one automatic decision per pipeline
// generation. Under the session's row lock it checks that no decision exists for the generation
// and that every result is stored (else it ends quietly: the last check to finish enqueues it
// again), decides, completes the session and records the webhook event — all in one transaction.
import { CHECK_IDS, type CheckId, type CheckResults } from '../checks/index.ts';
import type { OcrExtras } from '../checks/ocr/index.ts';
import {
  type CheckOutcomes,
  type ChipDecisionInput,
  type DecisionInput,
  decide,
  resolveThresholds,
} from '../decision/index.ts';
import type { IcChip, OcrResult } from '../domain/index.ts';
import { compareIdentityFields, type IdentityFieldComparison } from '../japanese/index.ts';
import { randomBase62 } from '../platform/crypto/random-id.ts';
import type { Platform } from '../platform/platform.ts';
import { completeSession, findSession } from '../sessions/index.ts';
import { findTenantSettings } from '../tenants/index.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';
import { comparableWithDocument, readPreRegisteredInfo, readUserInput } from './check-inputs.ts';
import {
  findAutomaticDecision,
  findLatestDecision,
  hasReviewDecision,
  insertDecision,
  listCheckResults,
} from './pipeline-repository.ts';
import type { DecisionJobData } from './run-check-job.ts';
import { isCurrent, sessionChecks } from './run-check-job.ts';
import { openEnvelope, type ResultEnvelope } from './stored-results.ts';

export type DecisionJobOutcome = 'decided' | 'already_decided' | 'not_ready' | 'superseded' | 'final';

const fieldsOf = (c: IdentityFieldComparison) => {
  const { mismatchedFields, ...fields } = c;
  return { fields: fields as Record<string, boolean>, mismatchedFields: [...mismatchedFields] };
};

interface StoredCheck {
  row: { status: string };
  envelope: ResultEnvelope<Record<string, unknown>, Record<string, unknown>>;
}

/**
 * The decision's input of each registered check (src/checks/check-registry.ts): the §2.9 object
 * with the numbers behind it (extras), or unavailable.
 */
export function checkOutcomes(
  stored: ReadonlyMap<CheckId, StoredCheck>,
  checks: readonly CheckId[] = CHECK_IDS,
): CheckOutcomes {
  return Object.fromEntries(
    checks.map((id) => {
      const found = stored.get(id);
      if (!found) throw new Error(`no stored result of ${id}`);
      return [
        id,
        found.row.status === 'success'
          ? { status: 'success', result: { ...found.envelope.extras, ...found.envelope.result } }
          : { status: 'unavailable', detail: `${id} unavailable` },
      ];
    }),
  ) as unknown as CheckOutcomes;
}

export async function runDecisionJob(platform: Platform, data: DecisionJobData): Promise<DecisionJobOutcome> {
  return platform.database.db.transaction().execute(async (trx) => {
    const session = await findSession(trx, data.sessionId, true);
    if (!session || session.pipeline_generation !== data.generation) return 'superseded';
    if (await hasReviewDecision(trx, session.id)) return 'final';
    if (await findAutomaticDecision(trx, session.id, data.generation)) return 'already_decided';
    const rows = await listCheckResults(trx, session.id);
    const byId = new Map(rows.map((r) => [r.check_id, r]));
    const checks = sessionChecks(session);
    if (!checks.every((id) => isCurrent(session, id, byId.get(id)))) return 'not_ready';

    const envelopes = new Map(
      checks.map((id) => {
        const row = byId.get(id)!;
        return [
          id,
          { row, envelope: openEnvelope<Record<string, unknown>, Record<string, unknown>>(platform, row) },
        ];
      }),
    );
    const outcomes = checkOutcomes(envelopes, checks);
    const chip = session.verification_method === 'ic_chip';
    // The document's identity fields: the chip's signed MRZ, or what the OCR read.
    const documentPayload = chip
      ? (envelopes.get('icChip')!.envelope as { result: IcChip }).result.payload
      : (envelopes.get('ocr')!.envelope as { result: OcrResult; extras?: OcrExtras }).result.payload;
    const ocrPayload = documentPayload ?? {};
    const comparable = <T extends { address?: string | undefined }>(fields: T) =>
      comparableWithDocument(fields, session.document_type);
    const pre = readPreRegisteredInfo(platform, session);
    const userInput = readUserInput(platform, session);
    const preMatch =
      pre && documentPayload ? fieldsOf(compareIdentityFields(comparable(pre), ocrPayload)) : null;
    const userMatch =
      userInput && documentPayload
        ? fieldsOf(
            compareIdentityFields(
              comparable({
                lastName: userInput.lastName,
                firstName: userInput.firstName,
                birthDate: userInput.birthDate,
                address: userInput.address,
              }),
              ocrPayload,
              { unreadIsUnknown: true },
            ),
          )
        : null;

    const thresholds = resolveThresholds(await findTenantSettings(trx, session.tenant_id));
    const liveness = { status: session.liveness_status, confidence: session.liveness_confidence };
    // A chip session's outcomes are those of its checks only (checksForMethod): no OCR, no document check.
    const input: DecisionInput | ChipDecisionInput = chip
      ? ({
          ...(outcomes as unknown as Omit<ChipDecisionInput, 'method'>),
          method: 'ic_chip',
          liveness,
          preRegisteredInfoMatch: preMatch,
          userInputMatch: userMatch,
        } satisfies ChipDecisionInput)
      : {
          ...outcomes,
          liveness,
          expectedDocumentType: session.document_type,
          preRegisteredInfoMatch: preMatch,
          userInputMatch: userMatch,
        };
    const decision = decide(input, thresholds);
    const now = platform.now();
    const previous = await findLatestDecision(trx, session.id);
    await insertDecision(trx, {
      id: `dec_${randomBase62(22)}`,
      sessionId: session.id,
      tenantId: session.tenant_id,
      generation: data.generation,
      status: decision.status,
      reason: decision.reason,
      metadata: decision.metadata,
      thresholds,
      preRegisteredInfoMatch: preMatch,
      userInputMatch: userMatch,
      decidedAt: now,
    });
    await completeSession(trx, session.id, decision.status, now);
    // docs/decisions.md "Reprocess queues": a webhook goes out when the decision's status or reason changes.
    if (!previous || previous.status !== decision.status || previous.reason !== decision.reason) {
      const results = Object.fromEntries(
        checks.map((id) => [id, envelopes.get(id)!.envelope.result]),
      ) as CheckResults;
      await recordWebhookEvent(
        trx,
        platform,
        'decision',
        {
          verificationId: session.id,
          tenantId: session.tenant_id,
          generation: data.generation,
          decision,
          results,
          processedAt: now,
          // A decision a reprocess changed says so: a receiver deduplicating by verificationId
          // would otherwise take it for a repeat of the earlier event (interface §6.5 rule 4).
          ...(previous && session.reprocess_requested_at
            ? {
                reprocess: {
                  requestedAt: session.reprocess_requested_at,
                  reason: session.reprocess_reason ?? '',
                  previousStatus: previous.status,
                },
              }
            : {}),
        },
        session,
      );
    }
    return 'decided';
  });
}
