// What a reviewer decides on, in words: why the case is here (the automatic reason and what each
// check found, never a raw field name like isForgedOrTampered), and the two faces side by side at
// one size with their similarity against the tenant's threshold.
import { useConsole } from '../console-context.ts';
import { lookup } from '../i18n.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const fixed = (value: number) => value.toFixed(2);

export type FindingLevel = 'bad' | 'warn' | 'ok';
export interface Finding {
  level: FindingLevel;
  text: string;
}

interface ComparisonRow {
  field?: string;
  ocrRead?: boolean;
  userInputMatchesOcr?: boolean | null;
  preRegisteredMatchesOcr?: boolean | null;
}

export interface FindingInputs {
  results: unknown;
  thresholds: unknown;
  liveness: unknown;
  comparison: unknown;
}

const RISK_LEVEL: Record<string, FindingLevel> = { low: 'ok', medium: 'warn', high: 'bad', unknown: 'warn' };

/** Each check's result as sentences, worst first; fields named by their labels, never their keys. */
export function useFindings({ results, thresholds, liveness, comparison }: FindingInputs): Finding[] {
  const { language } = useConsole();
  const say = (key: string, values: Record<string, string> = {}) => {
    const text = lookup(language, key) ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  };
  const found: Finding[] = [];
  const add = (level: FindingLevel, key: string, values?: Record<string, string>) =>
    found.push({ level, text: say(key, values) });
  const checks = isObject(results) ? results : {};
  const limits = isObject(thresholds) ? thresholds : {};

  const face = isObject(checks.faceMatch) ? checks.faceMatch : null;
  if (face) {
    const similarity = num(face.similarity);
    const threshold = num(limits.faceSimilarityThreshold);
    const band = num(limits.faceNearThresholdBand) ?? 0;
    if (face.status === 'no_face_document') add('bad', 'finding.noFaceDocument');
    else if (face.status === 'no_face_selfie') add('bad', 'finding.noFaceSelfie');
    else if (face.status === 'no_reference_image') add('bad', 'finding.noReferenceImage');
    else if (similarity !== null) {
      const values = {
        similarity: fixed(similarity),
        threshold: threshold === null ? '—' : fixed(threshold),
      };
      const near = threshold !== null && Math.abs(similarity - threshold) < band;
      const level: FindingLevel = near ? 'warn' : face.isSamePerson ? 'ok' : 'bad';
      const key = near
        ? 'finding.faceNear'
        : face.isSamePerson
          ? 'finding.faceSame'
          : 'finding.faceDifferent';
      add(level, key, values);
    }
  }

  for (const [name, subject] of [
    ['documentSpoofCheck', 'document'],
    ['selfieSpoofCheck', 'selfie'],
  ] as const) {
    const spoof = isObject(checks[name]) ? checks[name] : null;
    if (!spoof) continue;
    if (spoof.status === 'insufficient_quality') add('warn', `finding.${subject}TooPoor`);
    else {
      const risk = str(spoof.risk) ?? 'unknown';
      add(RISK_LEVEL[risk] ?? 'warn', `finding.${subject}Risk.${risk}`);
    }
    if (spoof.isForgedOrTampered === true) add('bad', `finding.${subject}Tampered`);
    if (spoof.isDisplayAttack === true) add('bad', `finding.${subject}Display`);
  }

  const ocr = isObject(checks.ocr) ? checks.ocr : null;
  if (ocr) {
    const confidence = num(ocr.confidence);
    const threshold = num(limits.ocrConfidenceThreshold);
    if (ocr.success === false) add('bad', 'finding.ocrFailed');
    else if (confidence !== null && threshold !== null && confidence < threshold)
      add('warn', 'finding.ocrLow', { confidence: fixed(confidence), threshold: fixed(threshold) });
    const unsupported = str(ocr.unsupportedDocumentType);
    if (unsupported) add('bad', 'finding.unsupportedDocument', { type: unsupported });
  }

  if (isObject(liveness) && liveness.status === 'failed') add('bad', 'finding.livenessFailed');

  const fraud = isObject(checks.fraudSignalAnalysis) ? checks.fraudSignalAnalysis : null;
  for (const signal of Array.isArray(fraud?.signals) ? fraud.signals.filter(isObject) : []) {
    const code = str(signal.code) ?? str(signal.type) ?? '';
    const level: FindingLevel = signal.severity === 'high' ? 'bad' : 'warn';
    const text = lookup(language, `signal.${code}`) ?? str(signal.message) ?? code;
    found.push({ level, text });
  }

  const rows = Array.isArray(comparison) ? (comparison.filter(isObject) as ComparisonRow[]) : [];
  for (const row of rows) {
    const field = lookup(language, `field.${row.field}`) ?? String(row.field);
    if (row.preRegisteredMatchesOcr === false) add('bad', 'finding.differsPreRegistered', { field });
    if (row.userInputMatchesOcr === false) add('bad', 'finding.differsUserInput', { field });
  }

  const rank: Record<FindingLevel, number> = { bad: 0, warn: 1, ok: 2 };
  return found.sort((a, b) => rank[a.level] - rank[b.level]);
}

export function FindingList({ findings }: { findings: Finding[] }) {
  const { t } = useConsole();
  if (findings.length === 0) return <p>{t('case.noFindings')}</p>;
  return (
    <ul class="findings">
      {findings.map((finding, i) => (
        <li key={i} class={`finding ${finding.level}`}>
          <span class="finding-mark" aria-hidden="true">
            {finding.level === 'ok' ? '✓' : finding.level === 'warn' ? '!' : '✗'}
          </span>
          <span class="visually-hidden">{t(`finding.level.${finding.level}`)}: </span>
          {finding.text}
        </li>
      ))}
    </ul>
  );
}

export interface FacePictures {
  document: { url: string; isFaceFound: boolean } | null;
  selfie: { url: string; isFaceFound: boolean } | null;
}

/** The document's face and the live check's face in two frames of the same size. */
export function FacePair({
  faces,
  similarity,
}: {
  faces: FacePictures | undefined;
  similarity: number | null;
}) {
  const { t } = useConsole();
  const frame = (picture: FacePictures['document'], caption: string, missing: string) => (
    <figure class="face">
      {picture ? (
        <img src={picture.url} alt={caption} width={240} height={300} />
      ) : (
        <div class="face-missing">{missing}</div>
      )}
      <figcaption>
        {caption}
        {picture && !picture.isFaceFound ? <small> · {t('case.noFaceFound')}</small> : null}
      </figcaption>
    </figure>
  );
  if (!faces?.document && !faces?.selfie) return <p>{t('case.noImages')}</p>;
  return (
    <div class="face-pair">
      {frame(faces?.document ?? null, t('case.documentFace'), t('case.noDocumentImage'))}
      {frame(faces?.selfie ?? null, t('case.selfieFace'), t('case.noSelfieImage'))}
      {similarity !== null ? (
        <p class="face-score">
          {t('case.similarity')} <strong>{similarity.toFixed(2)}</strong>
        </p>
      ) : null}
    </div>
  );
}
