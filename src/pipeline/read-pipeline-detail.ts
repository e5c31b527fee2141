// What the pipeline adds to GET /v1/verification-sessions/{id} (interface §2.6–2.10): ocrResult,
// and verification.decision / results / preRegisteredInfoMatch / userInputMatch.

import { CHECK_IDS, type CheckResults } from '../checks/index.ts';
import type { DecisionMetadata, OcrResult } from '../domain/index.ts';
import type { Platform } from '../platform/platform.ts';
import { findLatestDecision, listCheckResults } from './pipeline-repository.ts';
import { openEnvelope } from './stored-results.ts';

export interface PipelineDetail {
  ocrResult: OcrResult | null;
  decision?: { status: string; reason: string; metadata: DecisionMetadata };
  /** The registered checks' results, in the registry's order (the console shows them so). */
  results?: CheckResults;
  preRegisteredInfoMatch?: Record<string, boolean>;
  userInputMatch?: boolean;
}

export async function readPipelineDetail(platform: Platform, sessionId: string): Promise<PipelineDetail> {
  const db = platform.database.db;
  const rows = await listCheckResults(db, sessionId);
  const results: Record<string, unknown> = {};
  for (const id of CHECK_IDS) {
    const row = rows.find((r) => r.check_id === id);
    if (!row || row.status === 'failed') continue;
    results[id] = openEnvelope(platform, row).result;
  }
  const decision = await findLatestDecision(db, sessionId);
  const userMatch = decision?.user_input_match as { mismatchedFields?: string[] } | null | undefined;
  const preMatch = decision?.pre_registered_info_match as
    | { fields?: Record<string, boolean> }
    | null
    | undefined;
  return {
    ocrResult: (results.ocr as OcrResult | undefined) ?? null,
    ...(decision
      ? {
          decision: {
            status: decision.status,
            reason: decision.reason,
            metadata: decision.metadata as DecisionMetadata,
          },
        }
      : {}),
    ...(rows.length > 0 ? { results: results as CheckResults } : {}),
    ...(preMatch?.fields ? { preRegisteredInfoMatch: preMatch.fields } : {}),
    ...(userMatch ? { userInputMatch: (userMatch.mismatchedFields ?? []).length === 0 } : {}),
  };
}
