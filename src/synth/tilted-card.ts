// The thickness capture (厚み) of the 犯罪収益移転防止法 image method, synthesised: the card held
// tilted 30–45° so that one long edge — the card's 0.76 mm of PVC — shows as a thin band beside
// the face, and the two presentations that have no such edge: a paper copy cut to the card's
// outline and a phone screen showing the card, tilted the same way. The virtual camera is the
// corpus's (photograph-document.ts); only the edge is new: the card's back face is projected
// behind its front face and painted in the edge's colour first, so the part the face does not
// cover is the edge as a pinhole camera sees it.
import { applyHomography, homographyBetween, type Point } from '../platform/image/homography.ts';
import { type CaptureParameters, drawCaptureParameters, type Quality } from './capture-parameters.ts';
import {
  drawPrintedCopyParameters,
  drawScreenReplayParameters,
  printCopy,
  showOnScreen,
} from './document-attacks.ts';
import { composeCapture, finishCapture, type RgbImage, renderBackground } from './photograph-document.ts';
import type { Random } from './random.ts';
import type { FlatImage } from './render-document.ts';

/** ISO/IEC 7810 ID-1: 85.60 × 53.98 mm, 0.76 mm thick. */
export const CARD_WIDTH_MM = 85.6;
export const CARD_THICKNESS_MM = 0.76;

export type TiltedPresentation = 'card' | 'paper_copy' | 'screen';

export interface TiltParameters {
  capture: CaptureParameters;
  /** The edge's grey level before lighting: a lit white core, or an edge in its own shadow. */
  edgeShade: number;
  thicknessMm: number;
}

/**
 * A phone photo of a card held 30–45° about its long axis (either way: the near long edge shows),
 * otherwise drawn like the corpus's captures of that quality (clean or typical: a thickness
 * capture is retaken until the edge shows).
 */
export function drawTiltParameters(
  random: Random,
  quality: Exclude<Quality, 'poor'>,
  width: number,
): TiltParameters {
  const drawn = drawCaptureParameters(random, quality, width);
  const tilt = Math.round(random.range(30, 45) * 10) / 10;
  const capture: CaptureParameters = {
    ...drawn,
    tiltX: random.chance(0.5) ? tilt : -tilt,
    tiltY: Math.max(-6, Math.min(6, drawn.tiltY)),
  };
  // The near edge of a tilted card comes closer to the lens: the card is held where all of it,
  // edge included, stays in the frame (the flow's guide asks for that).
  const inFrame = (p: CaptureParameters) =>
    cornersAtDepth(p, CARD_WIDTH_MM, 53.98, 0).every(
      ([x, y]) => x >= p.width * 0.04 && x <= p.width * 0.96 && y >= p.height * 0.05 && y <= p.height * 0.95,
    );
  while (!inFrame(capture) && capture.documentWidth > 0.3)
    capture.documentWidth = Math.round((capture.documentWidth - 0.02) * 1000) / 1000;
  return {
    capture,
    edgeShade: random.chance(0.5) ? Math.round(random.range(225, 250)) : Math.round(random.range(45, 90)),
    thicknessMm: CARD_THICKNESS_MM,
  };
}

/**
 * Where a plane parallel to the card's face, `depth` pixels behind it, lands in the photo: the
 * projection of documentCorners (photograph-document.ts) with the card's thickness along its normal.
 */
export function cornersAtDepth(
  params: CaptureParameters,
  docWidth: number,
  docHeight: number,
  depth: number,
): Point[] {
  const rad = Math.PI / 180;
  const w = params.documentWidth * params.width;
  const h = (w * docHeight) / docWidth;
  const f = params.width * 1.1;
  const [ax, ay, az] = [params.tiltX * rad, params.tiltY * rad, params.rotation * rad];
  const cx = params.width * (0.5 + params.offset[0]);
  const cy = params.height * (0.5 + params.offset[1]);
  const corners: Point[] = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ];
  return corners.map(([x0, y0]) => {
    let x = x0 * Math.cos(az) - y0 * Math.sin(az);
    let y = x0 * Math.sin(az) + y0 * Math.cos(az);
    let z = depth;
    const y1 = y * Math.cos(ax) - z * Math.sin(ax);
    z = y * Math.sin(ax) + z * Math.cos(ax);
    y = y1;
    const x1 = x * Math.cos(ay) + z * Math.sin(ay);
    z = -x * Math.sin(ay) + z * Math.cos(ay);
    x = x1;
    const d = f + z;
    return [cx + (f * x) / d, cy + (f * y) / d] as Point;
  });
}

/** Paints the quadrilateral `corners` in one grey level, shaded a little along its length. */
function fillQuad(image: RgbImage, corners: Point[], shade: number): void {
  const { width, height, data } = image;
  const toUnit = homographyBetween(corners, [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ]);
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  for (
    let y = Math.max(0, Math.floor(Math.min(...ys)));
    y <= Math.min(height - 1, Math.ceil(Math.max(...ys)));
    y++
  ) {
    for (
      let x = Math.max(0, Math.floor(Math.min(...xs)));
      x <= Math.min(width - 1, Math.ceil(Math.max(...xs)));
      x++
    ) {
      const [u, v] = applyHomography(toUnit, x + 0.5, y + 0.5);
      if (u < 0 || u > 1 || v < 0 || v > 1) continue;
      const level = shade * (0.92 + 0.08 * Math.sin(u * Math.PI));
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) data[o + c] = Math.max(0, Math.min(255, Math.round(level)));
    }
  }
}

/**
 * The photo of a flat object (a card, a cut-out copy, a phone) held tilted; with `edge`, the
 * object's thickness shows as its edge. Returns JPEG bytes.
 */
export async function photographTilted(
  object: FlatImage,
  params: TiltParameters,
  edge: { thicknessPx: number; shade: number } | null,
): Promise<Buffer> {
  const { capture } = params;
  const background = renderBackground(capture);
  if (edge) {
    // Scene pixels per object pixel, so the edge's depth is in the same unit as the face's size.
    const scale = (capture.documentWidth * capture.width) / object.width;
    const behind = cornersAtDepth(capture, object.width, object.height, edge.thicknessPx * scale);
    fillQuad(background, behind, edge.shade);
  }
  return finishCapture(composeCapture(object, capture, background), capture);
}

/** The card itself, tilted: its edge, 0.76 mm of a 85.6 mm wide card, shows along one long side. */
export function photographTiltedCard(card: FlatImage, params: TiltParameters): Promise<Buffer> {
  const thicknessPx = (card.width * params.thicknessMm) / CARD_WIDTH_MM;
  return photographTilted(card, params, { thicknessPx, shade: params.edgeShade });
}

/**
 * A presentation attack tilted the same way: a colour copy cut to the card's outline (paper's
 * 0.1 mm edge is under a pixel: none drawn), or a phone showing an earlier photo of the card.
 */
export function photographTiltedAttack(
  card: FlatImage,
  kind: Exclude<TiltedPresentation, 'card'>,
  random: Random,
  params: TiltParameters,
): Promise<Buffer> {
  if (kind === 'paper_copy') {
    const copy = printCopy(card, { ...drawPrintedCopyParameters(random), margin: 0 });
    // The cut-out keeps the card's rounded outline: copy the card's transparency.
    for (let i = 3; i < copy.data.length; i += 4) copy.data[i] = card.data[i] ?? 255;
    return photographTilted(copy, params, null);
  }
  const shownParams = drawCaptureParameters(random, 'clean', 960);
  const shown = composeCapture(card, shownParams);
  const screen = showOnScreen(shown, drawScreenReplayParameters(random));
  return photographTilted(screen, { ...params, capture: { ...params.capture, documentWidth: 0.85 } }, null);
}
