// A document side as a flat image: the layout's SVG rasterised by sharp (librsvg) with the
// portrait composited into its box. The result is the "physical card" that is then photographed.
import sharp, { type OverlayOptions } from 'sharp';
import { type Box, type LayoutOptions, layoutDocumentSide, type SideLayout } from './document-layouts.ts';
import type { DocumentRecord } from './document-record.ts';

export type FlatImage = { data: Buffer; width: number; height: number };

/**
 * A portrait swap as it is done to a real card (docs/spoof-checks.md): the attacker prints a photo
 * of their own face, cuts it to about the portrait's size and glues it over the issued portrait.
 * The print sits a little off the box, turned, larger or smaller, toned by a home printer, with a
 * paper edge and a shadow where it stands off the card. Lengths in card units.
 */
export type PastedPrint = {
  photoFile: string;
  /** Size of the print relative to the portrait box. */
  scale: number;
  /** Offset of the print's centre from the box's centre. */
  dx: number;
  dy: number;
  /** Turn of the print on the card, degrees. */
  rotation: number;
  /** Width of the white paper edge a scissor cut leaves (0: cut on the image). */
  paperEdge: number;
  /** Shadow cast by the print's edge: offset towards (x, y), its darkness and softness. */
  shadow: { dx: number; dy: number; opacity: number; blur: number };
  /** The home printer's tone: saturation and brightness multipliers, contrast about mid-grey. */
  tone: { saturation: number; brightness: number; contrast: number };
};

/** The print cut out and turned: RGBA, transparent outside the paper, and where its top-left lands. */
async function cutPrint(paste: PastedPrint, box: Box): Promise<{ input: Buffer; left: number; top: number }> {
  const w = Math.round(box.width * paste.scale);
  const h = Math.round(box.height * paste.scale);
  const { contrast, brightness, saturation } = paste.tone;
  const photo = await sharp(paste.photoFile)
    .removeAlpha()
    .resize(w, h, { fit: 'cover', position: 'centre', kernel: 'lanczos3' })
    .modulate({ brightness, saturation })
    .linear(contrast, 128 * (1 - contrast))
    .png()
    .toBuffer();
  const edge = Math.round(paste.paperEdge);
  // Two pipelines: in one, sharp would turn the photo before adding the paper edge, leaving the
  // edge square to the card around a turned photo.
  const cut = await sharp(photo)
    .extend({ top: edge, bottom: edge, left: edge, right: edge, background: { r: 250, g: 250, b: 247 } })
    .png()
    .toBuffer();
  const paper = await sharp(cut)
    .ensureAlpha()
    .rotate(paste.rotation, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  return {
    input: paper.data,
    left: Math.round(box.x + box.width / 2 + paste.dx - paper.info.width / 2),
    top: Math.round(box.y + box.height / 2 + paste.dy - paper.info.height / 2),
  };
}

/** The print's shadow: its own outline in black, faded and softened (moved off along the light by the caller). */
async function shadowOf(print: { input: Buffer }, paste: PastedPrint): Promise<Buffer> {
  const { data, info } = await sharp(print.input).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += 4) {
    data[i] = 0;
    data[i + 1] = 0;
    data[i + 2] = 0;
    data[i + 3] = Math.round((data[i + 3] ?? 0) * paste.shadow.opacity);
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .blur(Math.max(0.3, paste.shadow.blur))
    .png()
    .toBuffer();
}

/** The plain light backdrop ID photo rules ask for (証明写真: 無背景, light blue-grey). */
const ID_PHOTO_BACKDROP = { r: 214, g: 224, b: 234 };

/**
 * The photo on a plain backdrop, as an ID photo is taken: the head and shoulders kept inside a soft
 * oval, the room around them (the packaged photos are cut from group pictures) faded into the
 * backdrop. Cards print their portrait's edge against the card's own print, where a busy
 * background would read as text or as a pasted edge to the checks.
 */
async function onPlainBackground(photo: Buffer, width: number, height: number): Promise<Buffer> {
  const { data } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(width * height * 3);
  const backdrop = [ID_PHOTO_BACKDROP.r, ID_PHOTO_BACKDROP.g, ID_PHOTO_BACKDROP.b];
  // The oval: head and shoulders; faded over its outer fifth.
  const [cx, cy, rx, ry] = [width / 2, height * 0.55, width * 0.5, height * 0.62];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const r = Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry);
      const keep = r <= 0.8 ? 1 : r >= 1 ? 0 : (1 - r) / 0.2;
      // Below the oval's middle the shoulders run out of the photo: keep them to the bottom edge.
      const k =
        y > cy ? Math.max(keep, Math.min(1, ((y - cy) / (height - cy)) * 1.5) * (r < 1.15 ? 1 : 0)) : keep;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++)
        out[o + c] = Math.round((data[o + c] ?? 0) * k + (backdrop[c] ?? 0) * (1 - k));
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** RGBA pixels of one side (rounded corners transparent), or null for a passport's back. */
export async function renderDocumentSide(
  record: DocumentRecord,
  side: 'front' | 'back',
  /** The holder's photo: a file, or the image itself. */
  portrait: string | Buffer,
  options: LayoutOptions & { pastedPrint?: PastedPrint } = {},
): Promise<FlatImage | null> {
  const layout = layoutDocumentSide(record, side, options);
  return layout && renderLayout(layout, portrait, options);
}

/** A laid-out side drawn flat, its portrait (if it has one) composited in. */
export async function renderLayout(
  layout: SideLayout,
  portrait: string | Buffer,
  options: { pastedPrint?: PastedPrint } = {},
): Promise<FlatImage> {
  const composites: OverlayOptions[] = [];
  if (layout.portrait) {
    const { width, height, x, y } = layout.portrait;
    const photo = await sharp(portrait)
      .removeAlpha()
      .resize(width, height, { fit: 'cover', position: 'centre', kernel: 'lanczos3' })
      .modulate({ brightness: 1.02, saturation: 0.9 })
      .png()
      .toBuffer();
    composites.push({ input: await onPlainBackground(photo, width, height), left: x, top: y });
    if (options.pastedPrint) {
      const print = await cutPrint(options.pastedPrint, layout.portrait);
      const { dx, dy } = options.pastedPrint.shadow;
      composites.push({
        input: await shadowOf(print, options.pastedPrint),
        left: Math.round(print.left + dx),
        top: Math.round(print.top + dy),
      });
      composites.push(print);
    }
  }
  const { data, info } = await sharp(Buffer.from(layout.svg), { density: 72 })
    .composite(composites)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // The portrait is composited over the rounded frame; restore the outer transparency.
  return { data, width: info.width, height: info.height };
}

/** Encode a flat image as PNG (for contact sheets and debugging). */
export async function encodePng(image: FlatImage): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png()
    .toBuffer();
}
