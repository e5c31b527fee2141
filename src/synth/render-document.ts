// A document side as a flat image: the layout's SVG rasterised by sharp (librsvg) with the
// portrait composited into its box. The result is the "physical card" that is then photographed.
import sharp, { type OverlayOptions } from 'sharp';
import { type LayoutOptions, layoutDocumentSide } from './document-layouts.ts';
import type { DocumentRecord } from './document-record.ts';

export type FlatImage = { data: Buffer; width: number; height: number };

/** RGBA pixels of one side (rounded corners transparent), or null for a passport's back. */
export async function renderDocumentSide(
  record: DocumentRecord,
  side: 'front' | 'back',
  portraitFile: string,
  options: LayoutOptions = {},
): Promise<FlatImage | null> {
  const layout = layoutDocumentSide(record, side, options);
  if (!layout) return null;
  const composites: OverlayOptions[] = [];
  if (layout.portrait) {
    const { width, height, x, y } = layout.portrait;
    const portrait = await sharp(portraitFile)
      .removeAlpha()
      .resize(width, height, { fit: 'cover', position: 'centre', kernel: 'lanczos3' })
      .modulate({ brightness: 1.02, saturation: 0.9 })
      .png()
      .toBuffer();
    composites.push({ input: portrait, left: x, top: y });
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
