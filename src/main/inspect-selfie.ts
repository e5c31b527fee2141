// `mimoto inspect selfie FILE [--json]`: the selfieSpoofCheck on one still, as the pipeline runs it
// on a live capture's frames (one frame here), the live check given as passed: what the passive
// detector and the image cues alone make of the picture. The JSON is a stable contract for
// operators and measurement: {"risk": "low"|"medium"|"high"|"unknown", "score": number,
// "signals": [{"name": string, "score": number}]} — every cue that scored above zero, strongest
// first. "unknown": the passive detector found no face to judge (a score is still printed).
import { type SelfieSpoofResult, selfieSpoofCheck } from '../checks/selfie-spoof/index.ts';
import { parse, readImage, UsageError } from './inspect-command.ts';

export interface SelfieInspection {
  risk: 'low' | 'medium' | 'high' | 'unknown';
  score: number;
  signals: { name: string; score: number }[];
}

/** The check's answer on one still, in the command's stable form. */
export async function inspectSelfie(image: Buffer): Promise<SelfieInspection> {
  const { result, measurements }: SelfieSpoofResult = await selfieSpoofCheck.run({
    frames: [{ image, t: 0 }],
    liveness: { passed: true, confidence: 1, failures: [], maxFaceDistance: null },
  });
  const signals = measurements.cues
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score)
    .map((c) => ({ name: c.name, score: c.score }));
  const risks: readonly string[] = ['low', 'medium', 'high'];
  const risk =
    measurements.passiveLive !== null && risks.includes(result.risk ?? '')
      ? (result.risk as SelfieInspection['risk'])
      : 'unknown';
  return { risk, score: result.score ?? 0, signals };
}

export async function selfieCommand(args: string[]): Promise<string> {
  const { values, positionals } = parse(args, { json: { type: 'boolean', default: false } });
  if (positionals.length !== 1) throw new UsageError('give one picture file: FILE');
  const inspection = await inspectSelfie(await readImage(positionals[0] as string, 'FILE'));
  if (values.json) return `${JSON.stringify(inspection)}\n`;
  const lines = inspection.signals.map((s) => `  ${s.name}: ${s.score.toFixed(2)}`);
  return `selfieSpoofCheck: risk ${inspection.risk}, score ${inspection.score}\n${lines.join('\n')}${lines.length ? '\n' : ''}`;
}
