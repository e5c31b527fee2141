// A portrait swapped on a real card (docs/spoof-checks.md): the issued portrait
// is printed into its box by the card's printer, edge for edge on the box; a print of another face
// glued over it is cut by hand, so its edges stand off the box, turned by a degree or two, and
// where it is cut smaller than the box or put off centre the issued portrait shows beside it (two
// parallel edges). On the front rectified to the layout's units, each side of the portrait box is
// searched for the straight edges that run along it most strongly: their offsets from the box and
// their angles to the card say where the portrait's outline really is.
import { type DocumentType, portraitBoxFor } from '../ocr/document-regions.ts';
import type { GreyImage } from '../ocr/find-document.ts';

export type PortraitSide = 'left' | 'right' | 'top' | 'bottom';
const SIDES: PortraitSide[] = ['left', 'right', 'top', 'bottom'];

interface EdgeLine {
  /** Offset from the box's side at the side's middle, units, outwards positive. */
  offset: number;
  /** Angle to the card's axis, degrees, clockwise positive on every side. */
  angle: number;
  /** Mean gradient across the line (grey levels per unit). */
  strength: number;
}

export interface PortraitEdge extends EdgeLine {
  side: PortraitSide;
  /** The side's length (units). */
  length: number;
  /** The strongest line within the search that stays at least SECOND_APART away from that one along the whole side. */
  second: EdgeLine;
  /** The strongest line within the search turned at least TURNED_APART from that one. */
  turned: EdgeLine;
  /** The strongest line square to the card within BOX_TOLERANCE of where a genuine card's edge runs. */
  atBox: number;
  /** False when the strongest line lies on the search's limit: the edge is beyond it, not found. */
  located: boolean;
  /** The offsets (inwards, outwards) a genuine card's edge is found within on this side (GENUINE_SLACK). */
  slack: [number, number];
}

/**
 * Where the portrait's edge runs on genuine cards, offset from the portrait box per side (units):
 * the median over the 40 clean and typical genuine fronts of a seed-12 corpus (manifest 4). The top
 * edge is the face's forehead or hair against the card and reads a little outside the box. A type
 * not measured here is searched for on the box itself.
 */
const GENUINE_OFFSETS: Partial<Record<DocumentType, Record<PortraitSide, number>>> = {
  residence_card: { left: 0, right: 0, top: 1, bottom: -1 },
  passport: { left: 2.5, right: -1.5, top: 2, bottom: -0.5 },
  drivers_license: { left: 0, right: 0, top: 1.5, bottom: 0 },
  my_number_card: { left: 2, right: -1.5, top: 1, bottom: 0 },
};
/**
 * How far from that offset a genuine card's edge has been found (units, inwards and outwards),
 * where the issuer's card and the layout drawn from its definition disagree: on the real genuine
 * licences of the bench:real set (5 with the card's outline found) the portrait's right edge
 * runs 6–12 units right of the definition's box and its left edge 3.5–4.5 units left of it; on
 * the real My Number card the bottom edge 7 units up. An edge inside this range is the box's.
 */
const GENUINE_SLACK: Partial<Record<DocumentType, Partial<Record<PortraitSide, [number, number]>>>> = {
  drivers_license: { left: [-5, 0], right: [0, 13] },
  my_number_card: { bottom: [-8, 0] },
};
/** How far off each side to look (units) and how far turned (degrees). */
const SEARCH_OFFSET = 14;
const SEARCH_ANGLE = 5;
const OFFSET_STEP = 0.25;
const ANGLE_STEP = 0.25;
/** How far from its genuine place the box's own edge may be found (the rectification's error), units. */
const BOX_TOLERANCE = 1;
/** A second edge is one at least this far from the strongest all along the side (units). */
const SECOND_APART = 3;
/** A turned edge is one at least this many degrees from the strongest. */
const TURNED_APART = 1.5;
/** Only the middle of each side: the corners belong to two sides, and a cut corner to neither. */
const SPAN = [0.12, 0.88] as const;

const tanOf = (degrees: number) => Math.tan((degrees * Math.PI) / 180);
/** A line on the search's limit marks an edge beyond it: not found. */
const withinSearch = (l: EdgeLine) => Math.abs(l.offset) < SEARCH_OFFSET && Math.abs(l.angle) < SEARCH_ANGLE;

/**
 * The gradient across lines of one orientation: for vertical lines (left, right) the x gradient
 * averaged over three rows, for horizontal ones the y gradient averaged over three columns.
 */
/**
 * The gradient within `window` (x0, y0, x1, y1, pixels; the whole page by default): the sides'
 * searches read it only around the portrait box, and the rest stays 0.
 */
function gradient(
  page: GreyImage,
  vertical: boolean,
  window: [number, number, number, number] = [0, 0, page.width, page.height],
): Float32Array {
  const { data, width: w, height: h } = page;
  const g = new Float32Array(w * h);
  const along = vertical ? w : 1;
  const across = vertical ? 1 : w;
  const [wx0, wy0, wx1, wy1] = window;
  for (let y = Math.max(1, wy0); y < Math.min(h - 1, wy1); y++)
    for (let x = Math.max(1, wx0); x < Math.min(w - 1, wx1); x++) {
      const i = y * w + x;
      let sum = 0;
      for (let k = -1; k <= 1; k++) {
        const j = i + k * along;
        sum += (data[j + across] as number) - (data[j - across] as number);
      }
      g[i] = sum / 6;
    }
  return g;
}

function searchSide(
  page: GreyImage,
  grad: Float32Array,
  box: [number, number, number, number],
  side: PortraitSide,
  genuineOffset: number,
  slack: [number, number],
): PortraitEdge {
  const [x0, y0, x1, y1] = box;
  const vertical = side === 'left' || side === 'right';
  const outwards = side === 'left' || side === 'top' ? -1 : 1;
  const along0 = vertical ? y0 : x0;
  const length = vertical ? y1 - y0 : x1 - x0;
  const across0 = { left: x0, right: x1, top: y0, bottom: y1 }[side];
  const mid = along0 + length / 2;
  const ts: number[] = [];
  for (let t = along0 + SPAN[0] * length; t <= along0 + SPAN[1] * length; t++) ts.push(t);
  const { width: w, height: h } = page;
  const acrossLimit = vertical ? w : h;
  const alongLimit = vertical ? h : w;
  // The gradient at (along, across) is read linearly across the line, nearest along it; per point
  // of the span, its row (or column) along, and where a step across lands.
  const nearest = Int32Array.from(ts, (t) => Math.round(t));
  const alongOk = Uint8Array.from(nearest, (a) => (a < 1 || a + 1 >= alongLimit ? 0 : 1));
  const alongIndex = Int32Array.from(nearest, (a) => (vertical ? a * w : a));
  const acrossStride = vertical ? 1 : w;
  // The searched angle is the line's slope in (along, across); reported clockwise on every side
  // (turning the print clockwise moves its left side's lower end left: a negative dx/dy).
  const clockwise = (angle: number) => (vertical ? 0 - angle : angle);
  const angles: number[] = [];
  for (let angle = -SEARCH_ANGLE; angle <= SEARCH_ANGLE + 1e-9; angle += ANGLE_STEP) angles.push(angle);
  const offsets: number[] = [];
  for (let offset = -SEARCH_OFFSET; offset <= SEARCH_OFFSET + 1e-9; offset += OFFSET_STEP)
    offsets.push(offset);
  const lineAt = Float64Array.from(offsets, (offset) => across0 + outwards * offset);
  // Each line's strength is the mean, over the span, of the gradient's magnitude across it (a
  // line with half its points off the page reads 0). All the offsets of one angle are summed at
  // once, point by point along the span: the same sums in the same order, read from neighbouring
  // pixels in turn.
  const strengths = new Float64Array(angles.length * offsets.length);
  const sums = new Float64Array(offsets.length);
  const counts = new Int32Array(offsets.length);
  const points: number[] = [];
  for (let k = 0; k < ts.length; k++) if (alongOk[k]) points.push(k);
  const last = lineAt.length - 1;
  for (let a = 0; a < angles.length; a++) {
    const slope = tanOf(angles[a] as number);
    sums.fill(0);
    counts.fill(0);
    // Points where every offset's line lies on the page (the usual case: the box well inside the
    // card), counted once for all offsets.
    let everyOffset = 0;
    for (const k of points) {
      const rise = slope * ((ts[k] as number) - mid);
      const base = alongIndex[k] as number;
      // The lines' positions grow with the offset: the first and the last on the page, all are.
      const first = ((lineAt[0] as number) + rise) | 0;
      const end = ((lineAt[last] as number) + rise) | 0;
      if (first >= 1 && end + 2 < acrossLimit) {
        everyOffset++;
        for (let j = 0; j <= last; j++) {
          const across = (lineAt[j] as number) + rise;
          const c = across | 0;
          const f = across - c;
          const i0 = base + c * acrossStride;
          sums[j] =
            (sums[j] as number) +
            Math.abs((grad[i0] as number) * (1 - f) + (grad[i0 + acrossStride] as number) * f);
        }
        continue;
      }
      for (let j = 0; j <= last; j++) {
        const across = (lineAt[j] as number) + rise;
        // Truncated, not floored: the same for the points on the page (from 1), and an integer.
        const c = across | 0;
        if (c < 1 || c + 2 >= acrossLimit) continue;
        const f = across - c;
        const i0 = base + c * acrossStride;
        sums[j] =
          (sums[j] as number) +
          Math.abs((grad[i0] as number) * (1 - f) + (grad[i0 + acrossStride] as number) * f);
        counts[j] = (counts[j] as number) + 1;
      }
    }
    for (let j = 0; j < offsets.length; j++) {
      const n = (counts[j] as number) + everyOffset;
      strengths[a * offsets.length + j] = n > ts.length / 2 ? (sums[j] as number) / n : 0;
    }
  }
  const lines: EdgeLine[] = [];
  for (let a = 0; a < angles.length; a++)
    for (let j = 0; j < offsets.length; j++)
      lines.push({
        offset: offsets[j] as number,
        angle: angles[a] as number,
        strength: strengths[a * offsets.length + j] as number,
      });
  const strongest = (candidates: EdgeLine[]) =>
    candidates.reduce((a, b) => (b.strength > a.strength ? b : a), { offset: 0, angle: 0, strength: 0 });
  const best = strongest(lines);
  // Apart all along the span, not only at its middle: lines that cross are one edge.
  const halfSpan = ((SPAN[1] - SPAN[0]) * length) / 2;
  const apart = (l: EdgeLine) =>
    Math.abs(l.offset - best.offset) - halfSpan * Math.abs(tanOf(l.angle) - tanOf(best.angle));
  const second = strongest(lines.filter((l) => apart(l) >= SECOND_APART && withinSearch(l)));
  const atBox = strongest(
    lines.filter((l) => l.angle === 0 && Math.abs(l.offset - genuineOffset) <= BOX_TOLERANCE),
  ).strength;
  const relative = (l: EdgeLine): EdgeLine => ({
    offset: l.offset - genuineOffset,
    angle: clockwise(l.angle),
    strength: l.strength,
  });
  const turned = strongest(
    lines.filter((l) => Math.abs(l.angle - best.angle) >= TURNED_APART && withinSearch(l)),
  );
  return {
    side,
    length,
    ...relative(best),
    second: relative(second),
    turned: relative(turned),
    atBox,
    located: withinSearch(best),
    slack,
  };
}

/**
 * The strongest straight edges along each side of the portrait box, on the front rectified to the
 * layout's units (1 px per unit); offsets are from where a genuine card's edge runs.
 */
/**
 * The part of the page the sides' searches read (pixels): the portrait box, widened by the search's
 * offset, the rise of its steepest line over half a side, and the sample's neighbours.
 */
export function portraitSearchWindow(
  box: readonly [number, number, number, number],
): [number, number, number, number] {
  const [x0, y0, x1, y1] = box;
  const margin = Math.ceil(SEARCH_OFFSET + tanOf(SEARCH_ANGLE) * Math.max(x1 - x0, y1 - y0) + 4);
  return [Math.floor(x0) - margin, Math.floor(y0) - margin, Math.ceil(x1) + margin, Math.ceil(y1) + margin];
}

/** The page pixels measurePortraitEdges reads: the search window and the gradient's neighbours. */
export function portraitPagePixels(documentType: DocumentType): [number, number, number, number] {
  const [x0, y0, x1, y1] = portraitSearchWindow(
    portraitBoxFor(documentType) as [number, number, number, number],
  );
  return [x0 - 1, y0 - 1, x1 + 1, y1 + 1];
}

export function measurePortraitEdges(page: GreyImage, documentType: DocumentType): PortraitEdge[] {
  const box = portraitBoxFor(documentType) as [number, number, number, number];
  const window = portraitSearchWindow(box);
  const gx = gradient(page, true, window);
  const gy = gradient(page, false, window);
  return SIDES.map((side) =>
    searchSide(
      page,
      side === 'left' || side === 'right' ? gx : gy,
      box,
      side,
      GENUINE_OFFSETS[documentType]?.[side] ?? 0,
      GENUINE_SLACK[documentType]?.[side] ?? [0, 0],
    ),
  );
}

export interface PortraitPasteEvidence {
  /**
   * How far the portrait's outline runs from the box, per side where it does (left, right,
   * bottom): the largest distance between the edge found and the box's side over the side's span,
   * units, largest first.
   */
  displacement: number[];
  /** The angle two sides of the outline agree on (degrees; 0 when no two do). */
  tilt: number;
}

/** Below this mean gradient (grey levels per unit) a side shows no edge worth reading. */
const MIN_EDGE = 8;
/** The box's own edge is gone when it is at most this share of the strongest edge on the side. */
const BOX_GONE = 0.6;
/**
 * A second edge inside the box counts when at least this strong against the first and in grey
 * levels: the issued portrait against the print is one photo's edge against another's, as strong
 * as a box edge; the face's own outline beside a light background reads 7–10 (seed 11's genuine
 * My Number cards and passports)…
 */
const SECOND_EDGE = 0.45;
const SECOND_MIN_EDGE = 16;
/** …and turned no more than a hand-glued print is (a steeper line is the photo's content). */
const SECOND_MAX_ANGLE = 3.5;
/** A turned edge (TURNED_APART) counts for the angle when this strong against the strongest (and SECOND_MIN_EDGE). */
const TURNED_EDGE = 0.8;
/** Two sides' angles agree within this (degrees)… */
const TILT_AGREEMENT = 1;
/** …and an agreed angle below this is the rectification's, not a print's. */
const MIN_TILT = 0.75;

/**
 * Where the portrait's outline is, from the edges measured: a side whose strongest edge is not
 * the box's (the print covers the box's edge and stands off it), or, on a sharp capture, a side
 * whose box edge has a second strong edge running inside it (the issued portrait shows beside the
 * print). The top side is the face's hair or forehead on many portraits and counts only for the
 * angle. A blurred capture's second edges are its own halo, so they are read only when `sharp`.
 */
export function portraitPasteEvidence(
  edges: PortraitEdge[],
  sharp: boolean,
  consistentTilt = false,
): PortraitPasteEvidence {
  const displacement: number[] = [];
  const angles: { side: PortraitSide; angle: number }[] = [];
  for (const edge of edges) {
    if (edge.strength < MIN_EDGE || !edge.located) continue;
    const halfSpan = ((SPAN[1] - SPAN[0]) * edge.length) / 2;
    const outline = outlineEdge(edge, sharp);
    angles.push({ side: edge.side, angle: outline?.angle ?? edge.angle });
    // A print turned across the box's edge: half the side shows the box's edge, all of it the
    // print's, turned (a blurred edge's own halo reads as strong turned lines, so only when sharp).
    const { turned } = edge;
    if (sharp && turned.strength >= Math.max(SECOND_MIN_EDGE, TURNED_EDGE * edge.strength))
      angles.push({ side: edge.side, angle: turned.angle });
    if (!outline || edge.side === 'top') continue;
    const [inwards, outwards] = edge.slack;
    const off = Math.max(0, inwards - outline.offset, outline.offset - outwards);
    displacement.push(off + halfSpan * Math.abs(tanOf(outline.angle)));
  }
  // A print is turned as one piece: sides turned opposite ways are the rectification's distortion
  // (a perspective left in, an outline found off the card), not a print (only where asked: the
  // issuers' layouts, whose fronts have no printed lines here to tell a good rectification).
  if (consistentTilt && contradicts(edges.filter(showsEdge)))
    return { displacement: displacement.sort((a, b) => b - a), tilt: 0 };
  return { displacement: displacement.sort((a, b) => b - a), tilt: agreedTilt(angles) };
}

/** The side shows an edge worth reading, within the search. */
export const showsEdge = (edge: PortraitEdge) => edge.strength >= MIN_EDGE && edge.located;

/** Two sides whose strongest edges are turned opposite ways, each by at least MIN_TILT. */
function contradicts(edges: PortraitEdge[]): boolean {
  return edges.some((a) => a.angle >= MIN_TILT) && edges.some((b) => b.angle <= -MIN_TILT);
}

/** The print's edge on this side, if the side shows one apart from the box's. */
function outlineEdge(edge: PortraitEdge, sharp: boolean): EdgeLine | undefined {
  if (edge.atBox <= BOX_GONE * edge.strength) return edge;
  const { second } = edge;
  const inside = second.offset <= -SECOND_APART;
  if (
    sharp &&
    inside &&
    second.strength >= Math.max(SECOND_MIN_EDGE, SECOND_EDGE * edge.strength) &&
    Math.abs(second.angle) <= SECOND_MAX_ANGLE
  )
    return second;
  return undefined;
}

/** The largest angle two sides share (within TILT_AGREEMENT, same direction). */
function agreedTilt(angles: { side: PortraitSide; angle: number }[]): number {
  let tilt = 0;
  for (const a of angles)
    for (const b of angles)
      if (a.side !== b.side && a.angle * b.angle > 0 && Math.abs(a.angle - b.angle) <= TILT_AGREEMENT)
        tilt = Math.max(tilt, Math.min(Math.abs(a.angle), Math.abs(b.angle)));
  return tilt >= MIN_TILT ? tilt : 0;
}
