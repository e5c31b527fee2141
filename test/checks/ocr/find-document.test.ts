// The document outline search (find-document.ts) on drawn scenes whose truth is exact.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { decodePhoto, findDocumentOutline, type Point } from '../../../src/checks/ocr/find-document.ts';

const W = 1280;
const H = 960;

/** A light card (aspect 1.5) at `corners` on a dark table, text lines on it, and optionally a glare blob. */
async function scene(corners: Point[], glare?: { x: number; y: number; r: number }): Promise<Buffer> {
  const points = corners.map(([x, y]) => `${x},${y}`).join(' ');
  const [p0, p1] = corners as [Point, Point];
  const lines = [0.25, 0.4, 0.55, 0.7]
    .map((t) => {
      const [x0, y0] = [p0[0] + (corners[3]![0] - p0[0]) * t, p0[1] + (corners[3]![1] - p0[1]) * t];
      return `<line x1="${x0 + (p1[0] - p0[0]) * 0.1}" y1="${y0 + (p1[1] - p0[1]) * 0.1}" x2="${x0 + (p1[0] - p0[0]) * 0.6}" y2="${y0 + (p1[1] - p0[1]) * 0.6}" stroke="#333" stroke-width="6"/>`;
    })
    .join('');
  const blob = glare
    ? `<defs><radialGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="0.7" stop-color="#f4f4f4"/><stop offset="1" stop-color="#f4f4f4" stop-opacity="0"/></radialGradient></defs><circle cx="${glare.x}" cy="${glare.y}" r="${glare.r}" fill="url(#g)"/>`
    : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#5a4634"/><polygon points="${points}" fill="#f2f2ee"/>${lines}${blob}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

const near = (a: Point, b: Point, tolerance: number) => Math.hypot(a[0] - b[0], a[1] - b[1]) <= tolerance;

describe('findDocumentOutline', () => {
  const card: Point[] = [
    [300, 250],
    [1020, 250],
    [1020, 730],
    [300, 730],
  ];

  it('finds a card on a table, corners to a few pixels', async () => {
    const outline = findDocumentOutline(await decodePhoto(await scene(card)));
    assert.ok(outline, 'no outline');
    for (const [i, c] of outline.corners.entries()) assert.ok(near(c, card[i]!, 8), `corner ${i}: ${c}`);
  });

  it('finds a card whose left side is lost in glare merged with it, from its three other sides', async () => {
    // The glare spills over the card's left edge onto the table: the bright region has no straight left side.
    const photo = await decodePhoto(await scene(card, { x: 250, y: 490, r: 230 }));
    const outline = findDocumentOutline(photo);
    assert.ok(outline, 'no outline');
    // The missing side is placed at the documents' aspect ratio (1.5, as drawn here).
    for (const [i, c] of outline.corners.entries()) assert.ok(near(c, card[i]!, 20), `corner ${i}: ${c}`);
  });

  it('takes no outline from a bright region that spans the frame: the card fills it', async () => {
    // A card filling the frame leaves no surface in the border ring the lighting is fitted on, and
    // the region found is only its brighter part, cut by the frame (read as a card on its side).
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#5a4634"/><rect x="320" y="0" width="640" height="${H}" fill="#f2f2ee"/></svg>`;
    assert.equal(
      findDocumentOutline(await decodePhoto(await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer())),
      undefined,
    );
  });

  it('keeps the outline of a card put into a corner of the frame', async () => {
    const corner: Point[] = [
      [0, 0],
      [720, 0],
      [720, 480],
      [0, 480],
    ];
    const outline = findDocumentOutline(await decodePhoto(await scene(corner)));
    assert.ok(outline, 'no outline');
    for (const [i, c] of outline.corners.entries()) assert.ok(near(c, corner[i]!, 12), `corner ${i}: ${c}`);
  });

  it('finds nothing on an empty table', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#5a4634"/></svg>`;
    assert.equal(
      findDocumentOutline(await decodePhoto(await sharp(Buffer.from(svg)).jpeg().toBuffer())),
      undefined,
    );
  });
});
