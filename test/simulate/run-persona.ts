// One persona through a real server with its pipeline workers (every
// `mimoto simulate` persona reaches the expected decision with GET detail filled). Shared by the
// persona test and `npm run demo:personas`, which prints the table for all five.

import { FlowStepRefused, HostedFlowClient } from '../../src/simulate/hosted-flow-client.ts';
import type { Persona } from '../../src/simulate/persona-media.ts';
import { prepareSimulation, type SimulationResult, simulateFlow } from '../../src/simulate/simulate-flow.ts';
import type { DocumentType } from '../../src/synth/index.ts';
import { createSession, getSessionDetail, type SimulateServer } from './simulate-server.ts';

/** The decisions each persona's verification may end in, as status → reasons (the README's persona table). */
export const EXPECTED_DECISIONS: Record<Persona, Readonly<Record<string, readonly string[]>>> = {
  genuine: { approved: ['all_checks_passed'] },
  impostor: { rejected: ['face_mismatch'] },
  'photo-attack': { rejected: ['liveness_failed', 'selfie_spoof_detected'] },
  'screen-replay': { rejected: ['document_spoof_detected'] },
  'blurry-document': { approved: ['all_checks_passed'] },
  // A recording either fails the poses it was not made for, or answers them and then does not
  // reflect the page's colours (docs/spoof-checks.md "Screen light").
  'video-replay': {
    rejected: ['liveness_failed', 'selfie_spoof_detected'],
    pending_review: ['face_injection_suspected'],
  },
  // Its face does not reflect the page's colours.
  'face-injection': { pending_review: ['face_injection_suspected'] },
};

export interface PersonaOutcome {
  persona: Persona;
  seed: number;
  documentType: DocumentType;
  documentUploads: SimulationResult['documentUploads'];
  sessionId: string;
  status: string;
  reason: string;
  expected: boolean;
  similarity: number | null;
  ocrStatus: string | null;
  ocrConfidence: number | null;
  documentSpoofRisk: string | null;
  selfieSpoofRisk: string | null;
  livenessStatus: string | null;
  fraudScore: number | null;
  fraudSignals: string[];
  /** From opening the link to the decision being readable in GET detail. */
  seconds: number;
  // biome-ignore lint/suspicious/noExplicitAny: the detail as the tenant reads it, for assertions
  detail: any;
}

async function waitForDecision(server: SimulateServer, sessionId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const detail = await getSessionDetail(server, sessionId);
    if (detail.status === 'failed') throw new Error(`session ${sessionId} failed: ${JSON.stringify(detail)}`);
    if (detail.verification?.decision) return detail;
    if (Date.now() > deadline) throw new Error(`no decision for ${sessionId} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * A new session, its one-time link opened at once (it is valid 10 s). On a machine so busy that
 * the link ran out before it was opened, the tenant is asked for a new session, as a person would
 * ask (once).
 */
async function enterNewSession(server: SimulateServer) {
  for (let attempt = 1; ; attempt++) {
    const created = await createSession(server);
    try {
      return { ...created, client: await HostedFlowClient.enter(created.verificationUrl, 'en') };
    } catch (error) {
      if (attempt >= 2 || !(error instanceof FlowStepRefused && error.status === 410)) throw error;
    }
  }
}

export async function runPersona(
  server: SimulateServer,
  persona: Persona,
  seed: number,
  options: { documentType?: DocumentType; timeoutMs?: number } = {},
): Promise<PersonaOutcome> {
  // The media before the session, whose link is valid 10 s (docs/api-reference.md §8).
  const prepared = await prepareSimulation({
    persona,
    seed,
    ...(options.documentType ? { documentType: options.documentType } : {}),
  });
  const started = performance.now();
  const { sessionId, verificationUrl, client } = await enterNewSession(server);
  const run = await simulateFlow({ url: verificationUrl, client, persona, prepared, pace: 'human' });
  const detail = await waitForDecision(server, sessionId, options.timeoutMs ?? 600_000);
  const v = detail.verification;
  const r = v.results ?? {};
  const expected = EXPECTED_DECISIONS[persona];
  return {
    persona,
    seed,
    documentType: run.documentType,
    documentUploads: run.documentUploads,
    sessionId,
    status: v.decision.status,
    reason: v.decision.reason,
    expected: expected[v.decision.status]?.includes(v.decision.reason) ?? false,
    similarity: r.faceMatch?.similarity ?? null,
    ocrStatus: r.ocr?.status ?? null,
    ocrConfidence: r.ocr?.confidence ?? null,
    documentSpoofRisk: r.documentSpoofCheck?.risk ?? null,
    selfieSpoofRisk: r.selfieSpoofCheck?.risk ?? null,
    livenessStatus: detail.liveness?.status ?? null,
    fraudScore: r.fraudSignalAnalysis?.riskScore ?? null,
    fraudSignals: (r.fraudSignalAnalysis?.signals ?? []).map((s: { code: string }) => s.code),
    seconds: (performance.now() - started) / 1000,
    detail,
  };
}

const fixed = (n: number | null, digits = 3) => (n === null ? '—' : n.toFixed(digits));

/** A Markdown table of outcomes, one row per session. */
export function formatOutcomes(outcomes: readonly PersonaOutcome[]): string {
  const head =
    '| persona | seed | document | decision | reason | as expected | face similarity | OCR status (confidence) | doc spoof | selfie spoof | fraud score (signals) | s |';
  const rule = `|${' --- |'.repeat(12)}`;
  const rows = outcomes.map((o) =>
    [
      o.persona,
      o.seed,
      o.documentType,
      o.status,
      o.reason,
      o.expected ? 'yes' : '**no**',
      fixed(o.similarity),
      `${o.ocrStatus ?? '—'} (${fixed(o.ocrConfidence)})`,
      o.documentSpoofRisk ?? '—',
      o.selfieSpoofRisk ?? '—',
      `${o.fraudScore ?? '—'}${o.fraudSignals.length ? ` (${o.fraudSignals.join(', ')})` : ''}`,
      o.seconds.toFixed(0),
    ].join(' | '),
  );
  return [head, rule, ...rows.map((row) => `| ${row} |`)].join('\n');
}
