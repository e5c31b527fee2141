// A value re-typed over the printed one on a card printed in its issuer's layout (the 運転免許証, the
// 個人番号カード): the field zones come from the one definition of each type
// (src/documents/document-types.ts), not from a measured print geometry. What a re-typed value
// leaves, whatever the font the issuer prints in: strokes heavier than the card's other values
// (a bold face where the card prints a regular one), and, on a value printed on a tinted band (the
// licence's 有効期限), the band's tint gone behind it (a patch of paper colour pasted over).
// Stroke weight is measured relative to the glyphs' height, so values printed at different sizes
// compare; each field is compared with the median of the card's other regular values.
import { DOCUMENT_DEFINITIONS, type DocumentField, type Region } from '../../documents/index.ts';
import { quantileAtFloor } from '../../platform/math/percentile.ts';
import type { GreyImage } from '../ocr/find-document.ts';

export type IssuerTextType = 'drivers_license' | 'my_number_card';

/**
 * The values each issuer prints in a regular face, compared with one another, and the bold value on
 * a tinted band (judged by the band's tint). The licence's issuer line (red, under the photo) and
 * the My Number card's one-glyph sex are left out: too little print to weigh.
 */
const REGULAR_FIELDS: Record<IssuerTextType, readonly DocumentField[]> = {
  drivers_license: ['name', 'birthDate', 'address', 'issueDate', 'documentNumber'],
  my_number_card: ['name', 'address', 'birthDate', 'expiryDate'],
};

export interface ZoneMeasurement {
  field: DocumentField;
  /** Mean stroke width (ink area over half its outline), units. */
  stroke: number;
  /** Height of the printed line (rows holding the middle 90 % of its ink), units. */
  height: number;
  /** Paper minus ink level (grey levels): a zone with little contrast holds no legible value. */
  contrast: number;
}

export interface BandMeasurement {
  field: DocumentField;
  /**
   * The band's chroma over the paper's just above it (grey levels of max − min of R, G, B; the
   * median over BAND_SEGMENTS lengths): a printed band 25–100, a patch of paper colour about 0.
   */
  tint: number;
}

export interface IssuerTextEvidence {
  /** Largest stroke-over-height of a regular value over the median of the card's other regular values. */
  weightRatio: number;
  weightField?: DocumentField;
  /** Every regular zone holds one line of print: the issuer's layout fits the photo. */
  fits?: boolean;
  /** How many regular values were legible (the ratio needs at least three). */
  legible: number;
  /** Median stroke-over-height of the legible regular values: blur thickens strokes (sharp print 0.17–0.26). */
  medianWeight: number;
  /** The tinted band's chroma over the paper's (BandMeasurement.tint), when the card prints one. */
  bandTint?: number;
  bandField?: DocumentField;
  zones: ZoneMeasurement[];
}

/** A zone whose paper and ink differ by less holds no legible print (empty, glare, off the card). */
const MIN_CONTRAST = 60;

function crop(image: GreyImage, [x0, y0, x1, y1]: Region): GreyImage {
  const left = Math.max(0, Math.round(x0));
  const top = Math.max(0, Math.round(y0));
  const width = Math.max(0, Math.min(image.width, Math.round(x1)) - left);
  const height = Math.max(0, Math.min(image.height, Math.round(y1)) - top);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    data.set(
      image.data.subarray((top + y) * image.width + left, (top + y) * image.width + left + width),
      y * width,
    );
  return { data, width, height };
}

/**
 * The ink of a zone without the card's rules and without print cut by the zone's edge: connected
 * dark regions that touch the zone's border (a rule of the form, a neighbouring value, the card's
 * edge) or run as a long thin line are dropped.
 */
function valueInk(zone: GreyImage, threshold: number): Uint8Array {
  const { data, width: w, height: h } = zone;
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < ink.length; i++) ink[i] = (data[i] as number) < threshold ? 1 : 0;
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    const pixels: number[] = [];
    let [minX, maxX, minY, maxY] = [w, -1, h, -1];
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop() as number;
      pixels.push(i);
      const x = i % w;
      const y = (i - x) / w;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const j = ny * w + nx;
        if (ink[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    const touches = minX === 0 || minY === 0 || maxX === w - 1 || maxY === h - 1;
    const spanX = maxX - minX + 1;
    const spanY = maxY - minY + 1;
    const rule = (spanX > 0.5 * w && spanY < 6) || (spanY > 0.8 * h && spanX < 6);
    if (touches || rule) for (const i of pixels) ink[i] = 0;
  }
  return ink;
}

/** quantileAtFloor of grey levels, counted instead of sorted (the same level). */
function levelAtFloor(levels: Uint8Array, q: number): number {
  if (levels.length === 0) return 0;
  const counts = new Uint32Array(256);
  for (let i = 0; i < levels.length; i++)
    counts[levels[i] as number] = (counts[levels[i] as number] as number) + 1;
  const rank = Math.min(levels.length - 1, Math.floor(q * levels.length));
  let below = 0;
  for (let level = 0; level < 256; level++) {
    below += counts[level] as number;
    if (below > rank) return level;
  }
  return 255;
}

/** Stroke width and line height of the value printed in `region` (units of the rectified card). */
export function measureZone(card: GreyImage, field: DocumentField, region: Region): ZoneMeasurement {
  const zone = crop(card, region);
  const { width: w, height: h } = zone;
  const paper = levelAtFloor(zone.data, 0.9);
  const inkLevel = levelAtFloor(zone.data, 0.01);
  const contrast = paper - inkLevel;
  if (contrast < MIN_CONTRAST || w < 3 || h < 3) return { field, stroke: 0, height: 0, contrast };
  const ink = valueInk(zone, (paper + inkLevel) / 2);
  let area = 0;
  let edges = 0;
  const rows = new Array<number>(h).fill(0);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!ink[y * w + x]) continue;
      area++;
      rows[y] = (rows[y] as number) + 1;
      if (x === 0 || !ink[y * w + x - 1]) edges++;
      if (x === w - 1 || !ink[y * w + x + 1]) edges++;
      if (y === 0 || !ink[(y - 1) * w + x]) edges++;
      if (y === h - 1 || !ink[(y + 1) * w + x]) edges++;
    }
  if (area === 0) return { field, stroke: 0, height: 0, contrast };
  const rowAt = (share: number) => {
    let below = 0;
    for (let y = 0; y < h; y++) {
      below += rows[y] as number;
      if (below >= share * area) return y;
    }
    return h - 1;
  };
  return { field, stroke: (4 * area) / edges, height: rowAt(0.95) - rowAt(0.05) + 1, contrast };
}

/** Lengths of band measured apart: a glare pales one or two, a patch pasted over the value all. */
const BAND_SEGMENTS = 6;

/**
 * The tinted band's colour against the paper's just above it, on the card's chroma (rectified like
 * the grey card): the median chroma of each length of band minus that of the paper above it, and
 * the median of those. Chroma, not tone: glare adds white to the band and keeps its chroma, dim light
 * darkens the paper as much as the band; a pale band (the licence's green) differs from paper in
 * tone by little more than a glare does.
 */
export function measureBand(
  chroma: GreyImage,
  field: DocumentField,
  [x0, y0, x1, y1]: Region,
): BandMeasurement {
  const inset = 4;
  const step = (x1 - x0 - 2 * inset) / BAND_SEGMENTS;
  const tints: number[] = [];
  for (let i = 0; i < BAND_SEGMENTS; i++) {
    const a = x0 + inset + i * step;
    const paper = levelAtFloor(crop(chroma, [a, y0 - 8, a + step, y0 - 2]).data, 0.5);
    const band = levelAtFloor(crop(chroma, [a, y0 + inset, a + step, y1 - inset]).data, 0.5);
    tints.push(band - paper);
  }
  return { field, tint: quantileAtFloor(tints, 0.5) };
}

/** The chroma pixels measureBand reads around a band (x0, y0, x1, y1): the band and the paper above it. */
export function bandPixels([x0, y0, x1, y1]: Region): [number, number, number, number] {
  return [Math.floor(x0), Math.floor(y0) - 10, Math.ceil(x1) + 1, Math.ceil(y1) + 1];
}

/**
 * A value zone holds one printed line: its ink spans 0.35–0.55 of the zone's height on the
 * synthetic cards and 0.4–0.6 on the real specimens; more means a rule, the portrait or a
 * neighbouring line got in (the layout sits off the photo), less that the zone holds no value.
 */
function plausibleLine(zone: ZoneMeasurement, region: Region): boolean {
  const share = zone.height / (region[3] - region[1]);
  return share >= 0.25 && share <= 0.65;
}

/** The card pixels issuerTextEvidence reads in the value zones (x0, y0, x1, y1 each). */
export function zonePixels(type: IssuerTextType): [number, number, number, number][] {
  const def = DOCUMENT_DEFINITIONS[type];
  return REGULAR_FIELDS[type].flatMap((field) => {
    const region = def.front[field];
    return region
      ? [[Math.floor(region[0]), Math.floor(region[1]), Math.ceil(region[2]) + 1, Math.ceil(region[3]) + 1]]
      : [];
  });
}

/** Measures the issuer's value zones on the front rectified to the definition's units. */
export function issuerTextEvidence(
  card: GreyImage,
  type: IssuerTextType,
  chroma: () => GreyImage,
): IssuerTextEvidence {
  const def = DOCUMENT_DEFINITIONS[type];
  const zones: ZoneMeasurement[] = [];
  for (const field of REGULAR_FIELDS[type]) {
    const region = def.front[field];
    if (region) zones.push(measureZone(card, field, region));
  }
  const legible = zones.filter((z) => z.stroke > 0 && plausibleLine(z, def.front[z.field] as Region));
  const weight = (z: ZoneMeasurement) => z.stroke / z.height;
  const evidence: IssuerTextEvidence = {
    weightRatio: 0,
    legible: legible.length,
    medianWeight: quantileAtFloor(legible.map(weight), 0.5),
    zones,
  };
  // The layout fits the photo when every regular zone holds one line of print (a card of another
  // type, or the outline of something else, leaves zones empty or cuts lines through them).
  const fits = legible.length === zones.length && zones.length >= 3;
  evidence.fits = fits;
  if (fits)
    for (const zone of legible) {
      const others = legible.filter((z) => z !== zone).map(weight);
      const ratio = weight(zone) / Math.max(1e-6, quantileAtFloor(others, 0.5));
      if (ratio > evidence.weightRatio) {
        evidence.weightRatio = ratio;
        evidence.weightField = zone.field;
      }
    }
  const band = def.colourBands[0];
  if (band && fits) {
    const measured = measureBand(chroma(), band.field, band.region);
    evidence.bandTint = measured.tint;
    evidence.bandField = band.field;
  }
  return evidence;
}
