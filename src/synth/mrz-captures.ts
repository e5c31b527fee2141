// Synthetic captures of machine-readable zones for measuring the MRZ finder and reader
// (`npm run bench:mrz-scale`, test/checks/ocr/mrz-small-and-full-page.test.ts): a made-up document
// of any state with every check digit right, its MRZ drawn in OCR-B (models/ocr-b-font, the
// typeface ICAO 9303 Part 3 prescribes) at the fixed pitch and line spacing ICAO prints it
// (2.54 mm a character, 4.23 mm a line, capitals 2.0–2.35 mm tall), in the scenes users send: a
// whole page scanned around a passport's data page with paragraphs of other print, the data page
// filling the frame, a card on a white sheet, a card filling the frame — at any photo width. The
// same seed, scene and width always give the same image.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import opentype, { type Font, type Path } from 'opentype.js';
import sharp from 'sharp';
import { mrzCheckDigit } from './mrz.ts';
import { Random } from './random.ts';
import { textPath } from './text-paths.ts';

export type MrzCaptureFormat = 'TD1' | 'TD2' | 'TD3';

/**
 * `page`: an A4 sheet scanned whole, a TD3 data page on it among paragraphs of text; `booklet`:
 * the TD3 data page filling most of the frame; `card-on-white`: a TD1 or TD2 card on a white sheet,
 * half the frame wide; `card-fill`: the card filling the frame.
 */
export type MrzScene = 'page' | 'booklet' | 'card-on-white' | 'card-fill';

export const MRZ_SCENES: readonly MrzScene[] = ['page', 'booklet', 'card-on-white', 'card-fill'];

export interface MrzCapture {
  image: Buffer;
  /** The zone as printed. */
  lines: string[];
  format: MrzCaptureFormat;
  scene: MrzScene;
  width: number;
  height: number;
  /** Photo pixels a character of the zone spans (its pitch in the capture). */
  pitchPx: number;
}

// ICAO 9303 Part 3 §4.2 (OCR-B size 1), Part 4–6: sizes in millimetres.
const PITCH_MM = 2.54;
const LINE_MM = 4.23;
const CAP_MM = 2.2;
const DOCUMENT_MM: Record<MrzCaptureFormat, { width: number; height: number; chars: number }> = {
  TD1: { width: 85.6, height: 53.98, chars: 30 },
  TD2: { width: 105, height: 74, chars: 36 },
  TD3: { width: 125, height: 88, chars: 44 },
};

const fontFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../models/ocr-b-font/OCRB.otf',
);
let ocrB: Font | undefined;
function loadOcrB(): Font {
  if (!ocrB) {
    const bytes = readFileSync(fontFile);
    ocrB = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return ocrB;
}

function pathData(p: Path): string {
  const n = (v: number) => (Math.round(v * 1000) / 1000).toString();
  let d = '';
  for (const c of p.commands) {
    if (c.type === 'Z') d += 'Z';
    else if (c.type === 'M' || c.type === 'L') d += `${c.type}${n(c.x)} ${n(c.y)}`;
    else if (c.type === 'Q') d += `Q${n(c.x1)} ${n(c.y1)} ${n(c.x)} ${n(c.y)}`;
    else d += `C${n(c.x1)} ${n(c.y1)} ${n(c.x2)} ${n(c.y2)} ${n(c.x)} ${n(c.y)}`;
  }
  return d;
}

/** One MRZ line in OCR-B, each glyph centred in its 2.54 mm cell, baseline at (x, y) mm. */
function ocrBLine(text: string, x: number, y: number): string {
  const font = loadOcrB();
  const os2 = (font as unknown as { tables?: { os2?: { sCapHeight?: number } } }).tables?.os2;
  const capUnits = os2?.sCapHeight || 0.7 * font.unitsPerEm;
  const size = (CAP_MM * font.unitsPerEm) / capUnits;
  let d = '';
  [...text].forEach((ch, i) => {
    const advance = font.getAdvanceWidth(ch, size);
    d += pathData(font.getPath(ch, x + i * PITCH_MM + (PITCH_MM - advance) / 2, y, size));
  });
  // OCR-B is printed a little heavier than its outlines draw (toner spread, laser engraving).
  return `<path fill="#151515" stroke="#151515" stroke-width="0.08" d="${d}"/>`;
}

// ── Made-up documents, every check digit right ─────────────────────────────────────────────────

const SURNAMES = [
  'ANDERSSON',
  'MUELLER',
  'OKAFOR',
  'DUBOIS',
  'ROSSI',
  'NOWAK',
  'HANSEN',
  'SILVA',
  'MURPHY',
  'KOWALSKA',
  'VAN<DER<BERG',
  'GARCIA<LOPEZ',
  'TANAKA',
  'NGUYEN',
  'OBRIEN',
  'PETROV',
  'LINDQVIST',
  'MARTIN',
  'BAKER',
  'SCHMIDT',
  'FERREIRA',
  'JOHANSSON',
  'KIM',
  'ABE',
  'WILLIAMSON<SMYTHE',
];
const GIVEN = [
  'ANNA',
  'LUKAS',
  'CHIAMAKA',
  'CAMILLE',
  'MARCO',
  'ZOFIA',
  'ERIK',
  'BEATRIZ',
  'SEAN',
  'HANNA<MARIA',
  'PIETER',
  'SOFIA',
  'YUKI',
  'MINH<ANH',
  'AOIFE',
  'IVAN',
  'ELSA',
  'JULES',
  'OLIVER<JAMES',
  'KLARA',
  'JOAO',
  'MAJA',
  'JIWOO',
  'HARUTO',
  'EMILY<ROSE',
];
/** State codes of ICAO 9303 Part 3 (and Utopia, the specimens'); D is Germany's, padded with fillers. */
const STATES = [
  'UTO',
  'D<<',
  'FRA',
  'GBR',
  'CAN',
  'NLD',
  'ITA',
  'ESP',
  'SWE',
  'JPN',
  'USA',
  'AUS',
  'IRL',
  'BEL',
  'POL',
  'PRT',
  'FIN',
  'NZL',
  'CHE',
  'AUT',
];

const cd = (s: string) => String(mrzCheckDigit(s));
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function yymmdd(r: Random, fromYear: number, toYear: number): string {
  const y = r.int(fromYear, toYear);
  const m = r.int(1, 12);
  const d = r.int(1, 28);
  return `${String(y % 100).padStart(2, '0')}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`;
}

function documentNumber(r: Random): string {
  const kind = r.int(0, 2);
  if (kind === 0) return `${LETTERS[r.int(0, 25)]}${LETTERS[r.int(0, 25)]}${r.digits(7)}`;
  if (kind === 1) return r.digits(9);
  // Letters and digits mixed, sometimes shorter than the field (fillers after it).
  const length = r.int(7, 9);
  let s = '';
  for (let i = 0; i < length; i++) s += r.chance(0.3) ? LETTERS[r.int(0, 25)] : String(r.int(0, 9));
  return s.padEnd(9, '<');
}

function names(r: Random, length: number): string {
  const surname = SURNAMES[r.int(0, SURNAMES.length - 1)] as string;
  const given = GIVEN[r.int(0, GIVEN.length - 1)] as string;
  return `${surname}<<${given}`.slice(0, length).padEnd(length, '<');
}

/** The zone of a made-up document of `format`, every check digit right (ICAO 9303 Part 4–6). */
export function madeUpMrz(r: Random, format: MrzCaptureFormat): string[] {
  const state = STATES[r.int(0, STATES.length - 1)] as string;
  const nationality = r.chance(0.85) ? state : (STATES[r.int(0, STATES.length - 1)] as string);
  const number = documentNumber(r);
  const birth = yymmdd(r, 1950, 2005);
  const expiry = yymmdd(r, 2027, 2035);
  const sex = r.chance(0.5) ? 'M' : r.chance(0.9) ? 'F' : '<';
  if (format === 'TD1') {
    const optional1 = r.chance(0.3) ? `${r.digits(4)}`.padEnd(15, '<') : '<'.repeat(15);
    const l1 = `${r.chance(0.5) ? 'ID' : 'I<'}${state}${number}${cd(number)}${optional1}`;
    const optional2 = '<'.repeat(11);
    const head = `${birth}${cd(birth)}${sex}${expiry}${cd(expiry)}${nationality}${optional2}`;
    const composite = cd(`${l1.slice(5, 30)}${head.slice(0, 7)}${head.slice(8, 15)}${head.slice(18, 29)}`);
    return [l1, `${head}${composite}`, names(r, 30)];
  }
  const length = format === 'TD3' ? 44 : 36;
  const l1 = `${format === 'TD3' ? 'P<' : r.chance(0.5) ? 'ID' : 'I<'}${state}${names(r, length - 5)}`;
  const optional =
    format === 'TD3'
      ? (() => {
          const personal = r.chance(0.4) ? r.digits(r.int(6, 14)).padEnd(14, '<') : '<'.repeat(14);
          return `${personal}${cd(personal)}`;
        })()
      : '<'.repeat(7);
  const head = `${number}${cd(number)}${nationality}${birth}${cd(birth)}${sex}${expiry}${cd(expiry)}${optional}`;
  const composite = cd(`${head.slice(0, 10)}${head.slice(13, 20)}${head.slice(21)}`);
  return [l1, `${head}${composite}`];
}

// ── Drawing ───────────────────────────────────────────────────────────────────────────────────

const WORDS =
  'the of application holder passport must be signed valid travel document issued by authority this page contains personal data which any alteration renders void please read instructions carefully before you sign and keep it in a safe place notice to the bearer'.split(
    ' ',
  );

function sentence(r: Random, chars: number): string {
  let s = '';
  while (s.length < chars) s += `${WORDS[r.int(0, WORDS.length - 1)]} `;
  return s.slice(0, chars).trim();
}

/** The document itself, its top-left at (x, y) mm: tint, a pale pattern, portrait, labelled values, the MRZ. */
function documentSvg(r: Random, format: MrzCaptureFormat, lines: string[], x: number, y: number): string {
  const { width, height, chars } = DOCUMENT_MM[format];
  const tint = ['#eef3ea', '#f3eee6', '#e9eef6', '#f5f0f5', '#f4f4ee'][r.int(0, 4)];
  const parts: string[] = [
    `<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="3" fill="${tint}"/>`,
  ];
  // A pale guilloche-like pattern over the upper part (never over the zone: ICAO keeps it clear).
  const waveColour = ['#c9d8c4', '#d8cbbb', '#c4cfe0', '#dccbd9'][r.int(0, 3)];
  for (let k = 0; k < 7; k++) {
    const amp = r.range(1, 3);
    const period = r.range(8, 16);
    const y0 = y + 6 + k * ((height - 30) / 7);
    let d = `M${x + 2} ${y0}`;
    for (let u = 2; u <= width - 2; u += 1)
      d += `L${x + u} ${(y0 + amp * Math.sin((u / period) * 2 * Math.PI)).toFixed(2)}`;
    parts.push(`<path d="${d}" stroke="${waveColour}" stroke-width="0.25" fill="none"/>`);
  }
  // Portrait box.
  const pw = width * 0.28;
  const ph = pw * 1.28;
  parts.push(
    `<rect x="${x + 4}" y="${y + 8}" width="${pw}" height="${Math.min(ph, height - 30)}" fill="#9c948c"/>`,
  );
  // Labelled values beside it, in a plain sans face.
  const left = x + 8 + pw;
  const rows = format === 'TD1' ? 4 : 6;
  for (let k = 0; k < rows; k++) {
    const ly = y + 10 + k * ((height - 34) / rows);
    parts.push(textPath(sentence(r, 14).toUpperCase(), left, ly, { size: 1.6, fill: '#555' }));
    parts.push(textPath(sentence(r, 18).toUpperCase(), left, ly + 2.8, { size: 2.4, fill: '#222' }));
  }
  // The zone: the bottom lines, left margin as ICAO's (about 6 mm on TD3, 4 mm on cards).
  const margin = (width - chars * PITCH_MM) / 2;
  const bottom = y + height - (format === 'TD1' ? 3.5 : 4.5);
  lines.forEach((line, i) => {
    parts.push(ocrBLine(line, x + margin, bottom - (lines.length - 1 - i) * LINE_MM));
  });
  return parts.join('');
}

/** Paragraphs of other print: lines as long as the page is wide, what crowds a zone out. */
function paragraphs(r: Random, x: number, y: number, width: number, count: number): string {
  const parts: string[] = [];
  for (let k = 0; k < count; k++) {
    const lineY = y + k * 5.2;
    parts.push(textPath(sentence(r, Math.round(width * 0.55)), x, lineY, { size: 3.2, fill: '#202020' }));
  }
  return parts.join('');
}

interface SceneLayout {
  /** The frame, mm. */
  width: number;
  height: number;
  svg: string;
}

function layoutScene(r: Random, scene: MrzScene, format: MrzCaptureFormat, lines: string[]): SceneLayout {
  const doc = DOCUMENT_MM[format];
  if (scene === 'page') {
    // A4 portrait: a heading and paragraphs above, the data page, paragraphs below.
    const width = 210;
    const height = 297;
    const dx = r.range(20, width - doc.width - 20);
    const dy = r.range(95, 130);
    const svg = [
      textPath('NOTICE', 20, 30, { size: 6, weight: 'bold', fill: '#111' }),
      paragraphs(r, 20, 42, width - 40, Math.floor((dy - 50) / 5.2)),
      documentSvg(r, format, lines, dx, dy),
      paragraphs(r, 20, dy + doc.height + 14, width - 40, 12),
    ].join('');
    return { width, height, svg };
  }
  if (scene === 'booklet') {
    const margin = r.range(3, 8);
    const width = doc.width + 2 * margin;
    const height = doc.height + 2 * margin + r.range(0, 10);
    return { width, height, svg: documentSvg(r, format, lines, margin, margin) };
  }
  const share = scene === 'card-on-white' ? r.range(0.45, 0.65) : r.range(0.9, 0.97);
  const width = doc.width / share;
  const height = width * 0.75;
  const dx = r.range(0.2, 0.8) * (width - doc.width);
  const dy = r.range(0.2, 0.8) * (height - doc.height);
  return { width, height, svg: documentSvg(r, format, lines, dx, dy) };
}

/** The format each scene shows: a passport's data page on a page or a booklet, a card otherwise. */
export function formatOfScene(scene: MrzScene, r: Random): MrzCaptureFormat {
  if (scene === 'page' || scene === 'booklet') return 'TD3';
  return r.chance(0.6) ? 'TD1' : 'TD2';
}

/**
 * One capture: `seed` and `scene` pick the document and its place; `width` the photo's width in
 * px (the height follows the scene). Drawn as vectors at that size, then as a scanner or camera
 * leaves it: a slight turn (±1.5°), a little blur, sensor noise, JPEG.
 */
export async function mrzCapture(seed: number, scene: MrzScene, width: number): Promise<MrzCapture> {
  const r = new Random(`mrz-capture:${seed}:${scene}`);
  const format = formatOfScene(scene, r.fork('format'));
  const lines = madeUpMrz(r.fork('document'), format);
  const layout = layoutScene(r.fork('layout'), scene, format, lines);
  const height = Math.round((width * layout.height) / layout.width);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${layout.width.toFixed(3)} ${layout.height.toFixed(3)}"><rect width="100%" height="100%" fill="#fbfbf9"/>${layout.svg}</svg>`;
  const look = r.fork('look');
  const angle = look.range(-1.5, 1.5);
  const blur = look.range(0.35, 0.8);
  const raw = await sharp(Buffer.from(svg))
    .rotate(angle, { background: '#fbfbf9' })
    .resize(width, height, { fit: 'fill' })
    .blur(blur)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const noise = look.fork('noise');
  const sigma = look.range(1.5, 4);
  const data = raw.data;
  for (let i = 0; i < data.length; i++)
    data[i] = Math.max(0, Math.min(255, Math.round((data[i] as number) + sigma * noise.normal())));
  const image = await sharp(data, {
    raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels },
  })
    .jpeg({ quality: Math.round(look.range(78, 92)) })
    .toBuffer();
  const pitchPx = (PITCH_MM * width) / layout.width;
  return { image, lines, format, scene, width: raw.info.width, height: raw.info.height, pitchPx };
}
