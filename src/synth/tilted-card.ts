// The thickness capture (厚み) of the 犯罪収益移転防止法 image method, synthesised: the card held
// tilted 30–45° so that one long edge — the card's 0.76 mm of PVC — shows as a thin band beside
// the face, and the two presentations that have no such edge: a paper copy cut to the card's
// outline and a phone screen showing the card, tilted the same way. The virtual camera is the
// corpus's (photograph-document.ts); only the edge is new: the card's back face is projected
// behind its front face and painted in the edge's colour first, so the part the face does not
// cover is the edge as a pinhole camera sees it.
import type { Point } from '../platform/image/homography.ts';
import { type CaptureParameters, drawCaptureParameters, type Quality } from './capture-parameters.ts';
import {
  drawPrintedCopyParameters,
  drawScreenReplayParameters,
  printCopy,
  showOnScreen,
} from './document-attacks.ts';
import {
  composeCapture,
  documentCorners,
  drawQuad,
  finishCapture,
  type RgbImage,
  renderBackground,
} from './photograph-document.ts';
import type { Random } from './random.ts';
import type { FlatImage } from './render-document.ts';

/** ISO/IEC 7810 ID-1: 85.60 × 53.98 mm, 0.76 mm thick. */
export const CARD_WIDTH_MM = 85.6;
export const CARD_THICKNESS_MM = 0.76;

export type TiltedPresentation = 'card' | 'paper_copy' | 'screen';

/**
 * How the edge looks. A card's edge is a band of its core (white or grey PVC) lit at another angle
 * than the face: brighter or darker than the face by that angle, often with a specular highlight
 * where it meets the face (the arris catches the light) and a darker rim where the rounded back
 * arris turns away from the light.
 */
export interface EdgeLook {
  /** The core's grey level before lighting: white PVC 205–245, grey 140–190. */
  core: number;
  /** The edge's light relative to the face's (0.35: in its own shadow, 1.05: facing the light). */
  light: number;
  /** Strength of the highlight along the front arris (0: none). */
  highlight: number;
  /** Level factor of the back arris's rim (1: no darker rim). */
  rim: number;
}

export interface TiltParameters {
  capture: CaptureParameters;
  /** The edge's mean grey level before scene lighting (core × light), for reports. */
  edgeShade: number;
  edge: EdgeLook;
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
    documentCorners(p, CARD_WIDTH_MM, 53.98, 0).every(
      ([x, y]) => x >= p.width * 0.04 && x <= p.width * 0.96 && y >= p.height * 0.05 && y <= p.height * 0.95,
    );
  while (!inFrame(capture) && capture.documentWidth > 0.3)
    capture.documentWidth = Math.round((capture.documentWidth - 0.02) * 1000) / 1000;
  const edge: EdgeLook = {
    core: random.chance(0.75) ? Math.round(random.range(205, 245)) : Math.round(random.range(140, 190)),
    light: Math.round(random.range(0.35, 1.05) * 100) / 100,
    highlight: random.chance(0.55) ? Math.round(random.range(0.3, 1) * 100) / 100 : 0,
    rim: random.chance(0.6) ? Math.round(random.range(0.45, 0.8) * 100) / 100 : 1,
  };
  return {
    capture,
    edgeShade: Math.round(edge.core * edge.light),
    edge,
    thicknessMm: CARD_THICKNESS_MM,
  };
}

/**
 * Paints the object's silhouette (its alpha: a card's rounded corners) mapped to `corners` in one
 * grey level, anti-aliased by the bilinear alpha.
 */
function paintSilhouette(image: RgbImage, object: FlatImage, corners: Point[], level: number): void {
  const value = Math.max(0, Math.min(255, level));
  drawQuad(image, object, corners, (o, _rgb, a) => {
    for (let c = 0; c < 3; c++)
      image.data[o + c] = Math.round(value * a + (image.data[o + c] ?? 0) * (1 - a));
  });
}

/** The edge's level at `s` of the way from the face's arris (0) to the back's (1). */
export function edgeLevel(look: EdgeLook, s: number): number {
  const base = look.core * look.light;
  let level = base;
  if (look.highlight > 0 && s < 0.35) level = base + (255 - base) * look.highlight * (1 - s / 0.35);
  if (s > 0.7) level *= 1 - (1 - look.rim) * ((s - 0.7) / 0.3);
  return level;
}

/**
 * The photo of a flat object (a card, a cut-out copy, a phone) held tilted; with `edge`, the
 * object's thickness shows as its edge. Returns JPEG bytes.
 */
export async function photographTilted(
  object: FlatImage,
  params: TiltParameters,
  edge: { thicknessPx: number; look: EdgeLook } | null,
): Promise<Buffer> {
  const { capture } = params;
  const background = renderBackground(capture);
  if (edge) {
    // Scene pixels per object pixel, so the edge's depth is in the same unit as the face's size.
    const scale = (capture.documentWidth * capture.width) / object.width;
    // The edge as the sweep of the card's outline through its thickness: slices painted from the
    // back one forwards, each in the level of its depth, so the visible part of each slice is the
    // edge at that depth (the face, composed last, covers the rest).
    const slices = 12;
    for (let k = slices; k >= 1; k--) {
      const s = k / slices;
      const at = documentCorners(capture, object.width, object.height, edge.thicknessPx * scale * s);
      paintSilhouette(background, object, at, edgeLevel(edge.look, s - 0.5 / slices));
    }
  }
  return finishCapture(composeCapture(object, capture, background), capture);
}

/** The card itself, tilted: its edge, 0.76 mm of a 85.6 mm wide card, shows along one long side. */
export function photographTiltedCard(card: FlatImage, params: TiltParameters): Promise<Buffer> {
  const thicknessPx = (card.width * params.thicknessMm) / CARD_WIDTH_MM;
  return photographTilted(card, params, { thicknessPx, look: params.edge });
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
