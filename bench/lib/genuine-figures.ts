// The four figures on genuine documents that say whether a genuine user gets through (bench:real):
// documentSpoofCheck high (a genuine document called an attack), medium (sent to review), no
// verdict, and expired-but-valid (a document whose printed expiry has passed read as still valid),
// on the images as given and their photographed variants, counted per image and per distinct
// document (a document counts where any of its images does); beside them the synthetic attacks'
// APCER per attack type from a saved bench:spoof summary.
import { existsSync, readFileSync } from 'node:fs';

export type GenuineVerdict = 'low' | 'medium' | 'high' | 'no verdict';

export interface GenuineImage {
  /** The distinct document the image shows (several images may show one). */
  document: string;
  /** 'as given' or the variant's name. */
  kind: string;
  verdict: GenuineVerdict;
}

export interface ExpiryReading {
  document: string;
  /** The printed expiry (truth), ISO. */
  printed: string | null;
  /** What the OCR read, ISO; undefined when nothing. */
  read: string | undefined;
}

export interface GenuineFigures {
  images: number;
  documents: number;
  high: { images: number; documents: number };
  medium: { images: number; documents: number };
  noVerdict: { images: number; documents: number };
  /** Of the documents whose printed expiry is before `today`: read as not expired (or not read). */
  expiredButValid: { documents: number; of: number };
}

export function genuineFigures(
  images: GenuineImage[],
  expiries: ExpiryReading[],
  today: Date,
): GenuineFigures {
  const documents = new Set(images.map((i) => i.document));
  const of = (v: GenuineVerdict) => {
    const hit = images.filter((i) => i.verdict === v);
    return { images: hit.length, documents: new Set(hit.map((i) => i.document)).size };
  };
  const day = today.toISOString().slice(0, 10);
  const expired = expiries.filter((e) => e.printed !== null && e.printed < day);
  // Per document: one that any image of it reads as valid (or unread) counts.
  const validRead = new Set(
    expired.filter((e) => e.read === undefined || e.read >= day).map((e) => e.document),
  );
  return {
    images: images.length,
    documents: documents.size,
    high: of('high'),
    medium: of('medium'),
    noVerdict: of('no verdict'),
    expiredButValid: { documents: validRead.size, of: new Set(expired.map((e) => e.document)).size },
  };
}

/** One APCER line per attack type of a bench:spoof summary (`--save-summary`), if it exists. */
export interface SpoofSummary {
  label: string;
  rows: { presentations: string; n: number; noVerdict: number; detected: number }[];
}

export function readSpoofSummary(file: string | undefined): SpoofSummary | null {
  if (!file || !existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as SpoofSummary;
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);

/** The markdown section: genuine figures per image and document, the synthetic APCER beside. */
export function genuineFiguresSection(figures: GenuineFigures, spoof: SpoofSummary | null): string {
  const f = figures;
  const line = (name: string, x: { images: number; documents: number }) =>
    `| ${name} | ${x.images}/${f.images} (${pct(x.images, f.images)}) | ${x.documents}/${f.documents} (${pct(x.documents, f.documents)}) |`;
  const attacks = spoof?.rows.filter((r) => !r.presentations.startsWith('bona fide')) ?? [];
  const bona = spoof?.rows.find((r) => r.presentations === 'bona fide');
  return `| genuine documents and their variants | images | distinct documents |
|---|---|---|
${line('documentSpoofCheck high', f.high)}
${line('documentSpoofCheck medium', f.medium)}
${line('no verdict (insufficient_quality)', f.noVerdict)}
| expired but read as valid (printed expiry before today) | – | ${f.expiredButValid.documents}/${f.expiredButValid.of} |

${
  spoof
    ? `Synthetic attacks beside them (bench:spoof, ${spoof.label}; APCER over the presentations given a verdict):

| attack | n | no verdict | APCER |
|---|---|---|---|
${attacks.map((r) => `| ${r.presentations} | ${r.n} | ${r.noVerdict} | ${pct(r.n - r.noVerdict - r.detected, r.n - r.noVerdict)} |`).join('\n')}
${bona ? `| bona fide (BPCER) | ${bona.n} | ${bona.noVerdict} | ${pct(bona.detected, bona.n - bona.noVerdict)} |` : ''}`
    : 'Synthetic attacks: no bench:spoof summary given (`--spoof-summary FILE`, written by `npm run bench:spoof -- --save-summary FILE`).'
}
`;
}
