// Contact sheets for docs/corpus.md: one PNG per document type (its genuine
// bundles) and one per attack type, each row a bundle: document sides, selfie, liveness stills.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { DOCUMENT_TYPES } from './document-record.ts';
import { ATTACK_TYPES, type Manifest, type Sample } from './generate-corpus.ts';
import { textPath } from './text-paths.ts';

const ROW_H = 120;
const DOC_W = 160;
const SELFIE_W = 90;
const FRAME_W = 160;
const GAP = 6;
const LABEL_H = 22;

function rowWidth(): number {
  return DOC_W * 2 + SELFIE_W + FRAME_W * 6 + GAP * 9;
}

async function tile(file: string, width: number, height: number): Promise<Buffer> {
  return sharp(file).resize(width, height, { fit: 'cover' }).png().toBuffer();
}

function label(text: string, x: number, y: number, width: number): OverlayOptions {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${LABEL_H}">${textPath(text, 2, 16, { size: 13, fill: '#222' })}</svg>`;
  return { input: Buffer.from(svg), left: x, top: y };
}

function describe(sample: Sample): string {
  const t = sample.truth as { attackDetails?: Record<string, unknown> | null };
  const details = t.attackDetails ? ` ${JSON.stringify(shortDetails(sample, t.attackDetails))}` : '';
  return `${sample.id} · ${sample.documentType} · ${sample.quality} · ${sample.person}${details}`;
}

function shortDetails(sample: Sample, details: Record<string, unknown>): Record<string, unknown> {
  switch (sample.attack) {
    case 'text_edit':
      return { field: details.field, original: details.original, edited: details.edited };
    case 'bad_check_digit':
      return { field: details.field };
    case 'expired':
      return { daysAgo: details.expiredDaysBeforeReference };
    case 'portrait_swap':
      return { portrait: details.portraitPerson };
    case 'face_swap_midway':
      return { swapTo: details.swapPerson, at: details.swapAt };
    case 'other_person':
      return { face: details.facePerson };
    case 'replayed_frames':
      return { recorded: details.recordedOrder };
    default:
      return {};
  }
}

async function sheet(corpusDir: string, samples: Sample[], title: string, file: string): Promise<void> {
  const width = rowWidth() + GAP * 2;
  const height = LABEL_H + samples.length * (ROW_H + LABEL_H + GAP) + GAP;
  const parts: OverlayOptions[] = [label(title, GAP, 0, width)];
  for (const [r, s] of samples.entries()) {
    const top = LABEL_H + r * (ROW_H + LABEL_H + GAP);
    parts.push(label(describe(s), GAP, top, width));
    let x = GAP;
    const y = top + LABEL_H;
    for (const side of [s.files.front, s.files.back]) {
      if (side) parts.push({ input: await tile(path.join(corpusDir, side), DOC_W, ROW_H), left: x, top: y });
      x += DOC_W + GAP;
    }
    parts.push({ input: await tile(path.join(corpusDir, s.files.selfie), SELFIE_W, ROW_H), left: x, top: y });
    x += SELFIE_W + GAP;
    for (const frame of s.files.frames.slice(0, 6)) {
      parts.push({ input: await tile(path.join(corpusDir, frame.file), FRAME_W, ROW_H), left: x, top: y });
      x += FRAME_W + GAP;
    }
  }
  await sharp({ create: { width, height, channels: 3, background: '#f4f4f4' } })
    .composite(parts)
    .png({ palette: true, quality: 85, effort: 8 })
    .toFile(file);
}

/** Write docs/img-style contact sheets for a generated corpus; returns the files written. */
export async function writeContactSheets(
  manifest: Manifest,
  corpusDir: string,
  outDir: string,
): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const type of DOCUMENT_TYPES) {
    const samples = manifest.samples.filter((s) => s.documentType === type && s.attack === null);
    if (samples.length === 0) continue;
    const file = path.join(outDir, `corpus-${type}.png`);
    await sheet(corpusDir, samples, `${type}: genuine bundles (front, back, selfie, liveness stills)`, file);
    written.push(file);
  }
  for (const attack of ATTACK_TYPES) {
    const samples = manifest.samples.filter((s) => s.attack === attack);
    if (samples.length === 0) continue;
    const file = path.join(outDir, `corpus-attack-${attack}.png`);
    await sheet(corpusDir, samples, `attack ${attack}`, file);
    written.push(file);
  }
  return written;
}
