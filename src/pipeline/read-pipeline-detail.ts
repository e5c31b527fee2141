// What the pipeline adds to GET /v1/verification-sessions/{id} (interface §2.6–2.10): ocrResult,
// and verification.decision / results / preRegisteredInfoMatch / userInputMatch.

import type {
  DecisionMetadata,
  FaceMatch,
  FraudSignalAnalysis,
  OcrResult,
  SpoofCheck,
} from '../domain/index.ts';
import type { Platform } from '../platform/platform.ts';
import { findLatestDecision, listCheckResults } from './pipeline-repository.ts';
import { openEnvelope } from './stored-results.ts';

export interface PipelineDetail {
  ocrResult: OcrResult | null;
  decision?: { status: string; reason: string; metadata: DecisionMetadata };
  results?: {
    ocr?: OcrResult;
    documentSpoofCheck?: SpoofCheck;
    selfieSpoofCheck?: SpoofCheck;
    faceMatch?: FaceMatch;
    fraudSignalAnalysis?: FraudSignalAnalysis;
  };
  preRegisteredInfoMatch?: Record<string, boolean>;
  userInputMatch?: boolean;
}

export async function readPipelineDetail(platform: Platform, sessionId: string): Promise<PipelineDetail> {
  const db = platform.database.db;
  const rows = await listCheckResults(db, sessionId);
  const results: Record<string, unknown> = {};
  for (const row of rows) {
    if (row.status === 'failed') continue;
    results[row.check_id] = openEnvelope(platform, row).result;
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
    ...(rows.length > 0 ? { results: results as PipelineDetail['results'] } : {}),
    ...(preMatch?.fields ? { preRegisteredInfoMatch: preMatch.fields } : {}),
    ...(userMatch ? { userInputMatch: (userMatch.mismatchedFields ?? []).length === 0 } : {}),
  };
}
