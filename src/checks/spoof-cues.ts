// How both spoof checks (documentSpoofCheck, selfieSpoofCheck) turn their cues into the §2.9 risk,
// score and details: independent cues combine like probabilities (noisy OR).

export interface SpoofCue {
  name: string;
  /** 0 (no sign) … 1 (certain). */
  score: number;
  /** The cue is a sign of a screen (isDisplayAttack). */
  display?: boolean;
  /** The cue is a sign of forgery or tampering (isForgedOrTampered). */
  tamper?: boolean;
}

export interface RiskThresholds {
  medium: number;
  high: number;
}

/**
 * A spoof check's answer when it could not judge the capture: no verdict (an ISO/IEC 30107-3
 * non-response), which the decision never counts as a pass (docs/spoof-checks.md "No verdict").
 */
export const NO_VERDICT = { status: 'insufficient_quality', risk: 'unknown' } as const;

export const roundScore = (v: number) => Math.round(v * 1000) / 1000;

export function combineSpoofCues(cues: SpoofCue[], thresholds: RiskThresholds, reportFrom: number) {
  const score = 1 - cues.reduce((p, c) => p * (1 - c.score), 1);
  const risk = score >= thresholds.high ? 'high' : score >= thresholds.medium ? 'medium' : 'low';
  const fired = cues.filter((c) => c.score >= reportFrom);
  const details =
    fired.length === 0
      ? 'no spoof cue fired'
      : fired.map((c) => `${c.name}: ${c.score.toFixed(2)}`).join('; ');
  // How far the score sits from the nearest risk boundary: the base of the confidence.
  const distance = Math.min(...[thresholds.medium, thresholds.high].map((b) => Math.abs(score - b)));
  return { score, risk, details, boundaryConfidence: Math.min(1, 0.6 + distance) } as const;
}
