// Tampering of printed values (docs/spoof-checks.md): a value re-typed over
// the original leaves a pasted patch. On a card the background under every value carries the
// security pattern (fine guilloche lines) or a flat tinted band; a patch is flat where the pattern
// should run on, or a different tone from the band around it. For each value line the layout
// prints, the background inside the line (between the glyphs) is compared with thin strips of
// background just above and below it: the same pattern, the same tone on a genuine card.

import { quantileAtFloor } from '../../platform/math/percentile.ts';
import type { DocumentType } from '../ocr/document-regions.ts';
import { type DocumentOutline, type GreyImage, warpDocument } from '../ocr/find-document.ts';

/**
 * Printed lines of the layouts `mimoto synth` prints (src/synth/document-layouts.ts), in layout units: text
 * start x, baseline, glyph size, how far right the line may run before the next printed element,
 * and whether it is printed bold. `field` names a value a forger would edit; lines without one
 * (issue date, conditions, titles…) are references that show this capture's stroke width and ink.
 * The OCR's FRONT_FIELDS are crop boxes padded for reading, not the print geometry.
 */
interface PrintedLine {
  field?: string;
  x: number;
  baseline: number;
  size: number;
  maxWidth: number;
  bold: boolean;
  /** Printed on a flat tinted band (a patch shows as a change of tone): rows of plain paper just above the band. */
  band?: [number, number];
  /**
   * Where the foot of this line's print sits on a genuine card (LineMeasurement.inkBottom): the
   * median and the spread (RMS, after the card's common offset is taken out) over the 67 clean and
   * typical genuine fronts of a seed-12 corpus (`mimoto synth --seed 12`). The values printed
   * change it a little (descenders, kana against kanji); the spread says how much.
   */
  foot: [number, number];
}

interface PageGeometry {
  width: number;
  height: number;
  lines: PrintedLine[];
}

const CARD = { width: 856, height: 540 };

/** Paper at or above this grey level is overexposed: tones and ink depths there say nothing. */
const OVEREXPOSED = 248;

/**
 * The document types whose printed lines are known here: the residence card and the passport data
 * page, which `mimoto synth` prints where the OCR reads them. The driving licence and the My Number
 * card are printed in their issuers' layouts, whose print geometry (glyph feet, bold lines) was
 * never measured: their lines are not listed, and these cues are not measured on them.
 */
export type LaidOutType = 'residence_card' | 'passport';
export const hasPrintGeometry = (type: DocumentType | undefined): type is LaidOutType =>
  type === 'residence_card' || type === 'passport';

export const PRINTED_LINES: Record<LaidOutType, PageGeometry> = {
  residence_card: {
    ...CARD,
    lines: [
      { field: 'name', x: 90, baseline: 106, size: 30, maxWidth: 750, bold: true, foot: [-2.5, 0.26] },
      { field: 'birthDate', x: 112, baseline: 152, size: 22, maxWidth: 210, bold: false, foot: [-1.4, 0.16] },
      { field: 'address', x: 100, baseline: 198, size: 19, maxWidth: 520, bold: false, foot: [-0.9, 0.2] },
      {
        field: 'expiryDate',
        x: 170,
        baseline: 338,
        size: 22,
        maxWidth: 450,
        bold: false,
        foot: [-0.6, 0.12],
      },
      {
        field: 'expiryDate',
        x: 52,
        baseline: 468,
        size: 20,
        maxWidth: 545,
        bold: true,
        band: [428, 437],
        foot: [-0.1, 0.31],
      },
      { x: 604, baseline: 56, size: 26, maxWidth: 240, bold: true, foot: [-2.5, 0.4] },
      { x: 112, baseline: 248, size: 24, maxWidth: 500, bold: true, foot: [-0.3, 0.18] },
      { x: 150, baseline: 292, size: 21, maxWidth: 470, bold: false, foot: [0.0, 0.11] },
      { x: 124, baseline: 382, size: 19, maxWidth: 500, bold: false, foot: [0.4, 0.18] },
    ],
  },
  passport: {
    width: 1000,
    height: 704,
    lines: [
      { x: 680, baseline: 120, size: 26, maxWidth: 300, bold: false, foot: [-2.4, 0.37] },
      { field: 'name', x: 330, baseline: 190, size: 26, maxWidth: 460, bold: false, foot: [-2.1, 0.34] },
      { field: 'name', x: 330, baseline: 260, size: 26, maxWidth: 460, bold: false, foot: [-2.0, 0.21] },
      { field: 'birthDate', x: 600, baseline: 330, size: 26, maxWidth: 390, bold: false, foot: [-1.3, 0.15] },
      { field: 'address', x: 450, baseline: 400, size: 26, maxWidth: 540, bold: false, foot: [-1.4, 0.14] },
      {
        field: 'expiryDate',
        x: 640,
        baseline: 470,
        size: 26,
        maxWidth: 350,
        bold: false,
        foot: [-0.6, 0.19],
      },
      { x: 330, baseline: 330, size: 26, maxWidth: 200, bold: false, foot: [-1.8, 0.21] },
      { x: 330, baseline: 470, size: 26, maxWidth: 280, bold: false, foot: [-0.5, 0.23] },
      { x: 450, baseline: 120, size: 26, maxWidth: 200, bold: false, foot: [-2.4, 0.3] },
    ],
  },
};

export interface LineMeasurement {
  field?: string;
  bold: boolean;
  /** Mean stroke width over glyph size (ink area over half its outline, at mid-level between paper and ink). */
  stroke: number;
  /** Paper level minus ink level (grey levels). */
  contrast: number;
  /**
   * Whether the print sits where the layout puts it: mean darkness of the glyph cores minus that
   * of the blank rows under the line, over their sum (about 1 when registered, near 0 or below
   * when the outline found was not the card's).
   */
  fit: number;
  /** Band lines: how much of the band's tint is missing behind the first glyphs (0 none, 1 all). */
  toneShift?: number;
  /** Paper level around the line (90th percentile, grey levels; 255 = overexposed). */
  paper: number;
  /** Depth of the glyph cores: paper minus the 25th percentile of the ink pixels, over paper. */
  inkDepth: number;
  /**
   * Where the print's foot is: the row above which 95 % of the line's ink lies (darkness-weighted)
   * minus the layout's baseline, in layout units. Compared with the same line on genuine cards
   * (PrintedLine.foot) by textEditEvidence.
   */
  inkBottom: number;
  /** PrintedLine.foot: where this line stands on a genuine card: [median, spread]. */
  genuineFoot: [number, number];
}

/** The front rectified to the layout's own units (1 px per unit), as the printed-line cues read it. */
export function rectifyFront(
  grey: GreyImage,
  outline: DocumentOutline,
  documentType: LaidOutType,
): GreyImage {
  const { width, height } = PRINTED_LINES[documentType];
  return warpDocument(grey, outline.corners, width, height);
}

/** Measures every printed line of the given document type on the rectified front (rectifyFront). */
export function measurePrintedLines(front: GreyImage, documentType: LaidOutType): LineMeasurement[] {
  const page = PRINTED_LINES[documentType];
  const { width: w, height: h } = page;
  const flat = front.data;
  const pixels = (x0: number, x1: number, y0: number, y1: number) => {
    const out: number[] = [];
    for (let y = Math.max(0, Math.round(y0)); y < Math.min(h, Math.round(y1)); y++)
      for (let x = Math.max(0, Math.round(x0)); x < Math.min(w, Math.round(x1)); x++)
        out.push(flat[y * w + x] as number);
    return out;
  };
  return page.lines.map((line) => {
    const { x, baseline: b, size: s } = line;
    // The rows a pasted value covers (the synthetic forger's patch: size above the baseline to 0.3 size below).
    const x0 = Math.max(0, Math.round(x - 3));
    const x1 = Math.min(w, Math.round(x + line.maxWidth));
    const y0 = Math.max(0, Math.round(b - s));
    const y1 = Math.min(h, Math.round(b + 0.3 * s));
    const values = pixels(x0, x1, y0, y1);
    const paper = quantileAtFloor(values, 0.9);
    const inkLevel = quantileAtFloor(values, 0.01);
    const threshold = (paper + inkLevel) / 2;
    let area = 0;
    let edges = 0;
    const rowInk = new Array<number>(y1 - y0).fill(0);
    const inkValues: number[] = [];
    for (let y = y0; y < y1; y++)
      for (let xx = x0; xx < x1; xx++) {
        const value = flat[y * w + xx] as number;
        if (value >= threshold) continue;
        rowInk[y - y0] = (rowInk[y - y0] as number) + threshold - value;
        area++;
        inkValues.push(value);
        if (xx === x0 || (flat[y * w + xx - 1] as number) >= threshold) edges++;
        if (xx === x1 - 1 || (flat[y * w + xx + 1] as number) >= threshold) edges++;
        if (y === y0 || (flat[(y - 1) * w + xx] as number) >= threshold) edges++;
        if (y === y1 - 1 || (flat[(y + 1) * w + xx] as number) >= threshold) edges++;
      }
    const darkness = (r0: number, r1: number) => {
      const v = pixels(x0, x1, r0, r1);
      return v.length ? paper - v.reduce((a, c) => a + c, 0) / v.length : 0;
    };
    const core = Math.max(0, darkness(b - 0.6 * s, b - 0.1 * s));
    const gap = Math.max(0, darkness(b + 0.35 * s, b + 0.55 * s));
    const measured: LineMeasurement = {
      ...(line.field ? { field: line.field } : {}),
      bold: line.bold,
      stroke: edges > 0 ? (4 * area) / edges / s : 0,
      contrast: paper - inkLevel,
      fit: (core - gap) / (core + gap + 1),
      paper,
      inkDepth: paper > 0 ? (paper - quantileAtFloor(inkValues, 0.25)) / paper : 0,
      inkBottom: inkQuantileRow(rowInk, 0.95) + y0 - b,
      genuineFoot: line.foot,
    };
    if (line.band) {
      // The band's tone behind the first glyphs (inside any patch) and at its tail, right of the
      // longest value, each against the card's paper just above the band at the same columns, so
      // that a lighting gradient along the band cancels. 0 = the band runs on under the text;
      // 1 = the band's tint is gone there (a patch of paper colour).
      const rows = [b - 0.8 * s, b + 0.1 * s] as const;
      const [p0, p1] = line.band;
      const level = (c0: number, c1: number, r0: number, r1: number) =>
        quantileAtFloor(pixels(c0, c1, r0, r1), 0.9);
      const headPaper = level(x, x + 4 * s, p0, p1);
      const head = level(x, x + 4 * s, rows[0], rows[1]) - headPaper;
      const tailX = x + line.maxWidth - 50;
      const tail = level(tailX, tailX + 50, rows[0], rows[1]) - level(tailX, tailX + 50, p0, p1);
      // No tint can show where the paper is overexposed (a glare: band and paper both read ~255),
      // nor where the band reads lighter than the paper above it (light falling across the card):
      // nothing is measured there. Bona fide captures of the accuracy corpus read head paper
      // 249–255 on 10 of the 11 bands taken for patches; re-typed values on bands 230–241.
      const measurable = headPaper < OVEREXPOSED && head <= 8;
      measured.toneShift = measurable ? (head - tail) / Math.max(-tail, 8) : 0;
    }
    return measured;
  });
}

/** Layout units. Spreads below this (measured on 16–17 cards per layout) are not trusted. */
const MIN_FOOT_SPREAD = 0.15;
/** Layout units. A line standing lower than this is misread, not set low (textEditEvidence). */
const MAX_BASELINE_DROP = 4;

/** The row (fractional, from the first) above which `share` of the ink lies. */
function inkQuantileRow(rowInk: number[], share: number): number {
  const total = rowInk.reduce((a, c) => a + c, 0);
  let below = 0;
  for (let i = 0; i < rowInk.length; i++) {
    const ink = rowInk[i] as number;
    if (ink > 0 && below + ink >= share * total) return i + (share * total - below) / ink;
    below += ink;
  }
  return rowInk.length;
}

export interface TextEditEvidence {
  /** Largest stroke width of a regular-weight value over the median of the card's other regular lines. */
  weightRatio: number;
  weightField?: string;
  /** Largest share of a band's tint missing behind a value printed on it. */
  bandTintLoss: number;
  bandField?: string;
  /**
   * How much lighter a bold value's glyph cores are than the card's bold reference lines (inkDepth
   * below the lighter reference); 0 when the capture is not sharp and even enough to judge.
   */
  inkShortfall: number;
  inkField?: string;
  /**
   * How far a value's print sits below where the card's other lines put it (a re-typed value set
   * off the baseline): the foot of the line against its genuine position, minus the median of the
   * same for the card's other legible lines (which takes out the rectification's offset), in
   * units of the line's genuine spread (at least MIN_FOOT_SPREAD).
   */
  baselineDrop: number;
  baselineField?: string;
  /** Median registration of the lines (LineMeasurement.fit). */
  fit: number;
  /** Median stroke width over glyph size of the legible regular lines (blur widens it). */
  regularStroke: number;
}

/**
 * The strongest sign of a re-typed value: a value printed heavier than the card's other regular
 * lines (the synthetic forger's text is bold), a value standing lower than the card's other lines
 * put it (set off its baseline), or a band whose tint stops behind a value.
 * Lines with little contrast (an empty optional line, a glare) are left out of the reference.
 */
export function textEditEvidence(lines: LineMeasurement[]): TextEditEvidence {
  const topContrast = Math.max(...lines.map((l) => l.contrast));
  const printed = lines.filter((l) => l.contrast >= 0.5 * topContrast);
  const legible = printed.filter((l) => !l.bold);
  const ink = inkShortfall(lines);
  const evidence: TextEditEvidence = {
    weightRatio: 0,
    baselineDrop: 0,
    bandTintLoss: 0,
    inkShortfall: ink.shortfall,
    ...(ink.field ? { inkField: ink.field } : {}),
    fit: quantileAtFloor(
      lines.map((l) => l.fit),
      0.5,
    ),
    regularStroke: quantileAtFloor(
      legible.map((l) => l.stroke),
      0.5,
    ),
  };
  for (const line of legible) {
    if (!line.field) continue;
    const others = legible.filter((l) => l !== line).map((l) => l.stroke);
    if (others.length < 2) continue;
    const ratio = line.stroke / Math.max(1e-6, quantileAtFloor(others, 0.5));
    if (ratio > evidence.weightRatio) {
      evidence.weightRatio = ratio;
      evidence.weightField = line.field;
    }
  }
  const offset = (l: LineMeasurement) => l.inkBottom - l.genuineFoot[0];
  for (const line of printed) {
    if (!line.field) continue;
    const others = printed.filter((l) => l !== line).map(offset);
    if (others.length < 3) continue;
    const units = offset(line) - quantileAtFloor(others, 0.5);
    // Several units is no longer a line set low but a line misread (a glare, a smudge, the edge of
    // the card): the synthetic forger's lines drop 0.5–2.3 units.
    if (units > MAX_BASELINE_DROP) continue;
    const drop = units / Math.max(MIN_FOOT_SPREAD, line.genuineFoot[1]);
    if (drop > evidence.baselineDrop) {
      evidence.baselineDrop = drop;
      evidence.baselineField = line.field;
    }
  }
  for (const line of lines)
    if (line.toneShift !== undefined && line.field && line.toneShift > evidence.bandTintLoss) {
      evidence.bandTintLoss = line.toneShift;
      evidence.bandField = line.field;
    }
  return evidence;
}

/**
 * A bold value printed in a lighter ink than the card's bold reference lines (the synthetic
 * forger's re-typed name: bold like the original, so the weight cue cannot see it, but #2b2b2b
 * instead of #111). Judged only on a sharp, evenly lit capture: two bold references whose cores
 * are deep (inkDepth ≥ 0.88) and agree within 0.03, no overexposed paper around any of the
 * three lines (OVEREXPOSED). Measured on the accuracy corpus's licences: genuine clean names 0.92 ± 0.01 against
 * references 0.89–0.93; the two clean re-typed names 0.81. Typical captures vary by 0.1 between
 * lines (glare, overexposure) and are not judged.
 */
function inkShortfall(lines: LineMeasurement[]): { shortfall: number; field?: string } {
  const even = (l: LineMeasurement) => l.paper < OVEREXPOSED;
  const references = lines.filter((l) => l.bold && !l.field && l.toneShift === undefined);
  if (references.length < 2 || !references.every(even)) return { shortfall: 0 };
  const depths = references.map((l) => l.inkDepth);
  const lightest = Math.min(...depths);
  if (lightest < 0.88 || Math.max(...depths) - lightest > 0.03) return { shortfall: 0 };
  let best: { shortfall: number; field?: string } = { shortfall: 0 };
  for (const line of lines) {
    if (!line.bold || !line.field || line.toneShift !== undefined || !even(line)) continue;
    const shortfall = lightest - line.inkDepth;
    if (shortfall > best.shortfall) best = { shortfall, field: line.field };
  }
  return best;
}
