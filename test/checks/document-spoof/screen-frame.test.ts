// measureScreenFrame (image-cues.ts) on drawn photos: a dark hollow frame off the photo's edge is a
// bezel; a dark solid blob, or a dark surface that runs out of the photo, is not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { measureScreenFrame } from '../../../src/checks/document-spoof/image-cues.ts';
import { documentSpoofCheck } from '../../../src/checks/document-spoof/index.ts';
import type { GreyImage } from '../../../src/checks/ocr/find-document.ts';

const W = 640;
const H = 480;
/** [x0, y0, x1, y1), fractions of the photo. */
type Rect = [number, number, number, number];

/** A mid-grey photo with dark rectangles painted on it. */
function photo(...dark: Rect[]): GreyImage {
  const data = new Uint8Array(W * H).fill(170);
  for (const [x0, y0, x1, y1] of dark)
    for (let y = Math.round(y0 * H); y < Math.round(y1 * H); y++)
      data.fill(20, y * W + Math.round(x0 * W), y * W + Math.round(x1 * W));
  return { data, width: W, height: H };
}

/** The four sides of a frame around [0.2, 0.2]–[0.8, 0.8], each 0.03 thick; `open` leaves one out. */
function frame(open?: 'left'): Rect[] {
  const sides: Record<string, Rect> = {
    top: [0.2, 0.2, 0.8, 0.23],
    bottom: [0.2, 0.77, 0.8, 0.8],
    left: [0.2, 0.2, 0.23, 0.8],
    right: [0.77, 0.2, 0.8, 0.8],
  };
  return Object.entries(sides)
    .filter(([side]) => side !== open)
    .map(([, r]) => r);
}

test('a dark frame around the middle of the photo: its hull covers the framed area and it is hollow', () => {
  const { hullShare, hollowness } = measureScreenFrame(photo(...frame()));
  assert.ok(Math.abs(hullShare - 0.36) < 0.02, `hull ${hullShare}`);
  assert.ok(hollowness > 2.75, `hollowness ${hollowness}`);
});

test('a frame with one side washed out (glare) is still hollow and wide', () => {
  const { hullShare, hollowness } = measureScreenFrame(photo(...frame('left')));
  assert.ok(hullShare > 0.3, `hull ${hullShare}`);
  assert.ok(hollowness > 2.75, `hollowness ${hollowness}`);
});

test('a solid dark blob of the same size is not hollow', () => {
  const { hullShare, hollowness } = measureScreenFrame(photo([0.2, 0.2, 0.8, 0.8]));
  assert.ok(hullShare > 0.3);
  assert.ok(hollowness < 1.1, `hollowness ${hollowness}`);
});

test('a dark region that runs out of the photo (a dark table, a sleeve) is not a frame', () => {
  const reachingOut = frame().map(([x0, y0, x1, y1]): Rect => [x0 - 0.2, y0, x1, y1]);
  assert.deepEqual(measureScreenFrame(photo(...reachingOut)), { hullShare: 0, hollowness: 0 });
  assert.deepEqual(measureScreenFrame(photo()), { hullShare: 0, hollowness: 0 });
});

test('a photo stored turned (portrait) is searched at the scale of the same photo landscape', () => {
  const landscape = photo(...frame());
  const data = new Uint8Array(W * H);
  // Turned 90°: column x of the landscape photo becomes row x.
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) data[x * H + (H - 1 - y)] = landscape.data[y * W + x] as number;
  const turned = measureScreenFrame({ data, width: H, height: W });
  const upright = measureScreenFrame(landscape);
  assert.ok(
    Math.abs(turned.hullShare - upright.hullShare) < 0.01,
    `${turned.hullShare} vs ${upright.hullShare}`,
  );
  assert.ok(
    Math.abs(turned.hollowness - upright.hollowness) < 0.3,
    `${turned.hollowness} vs ${upright.hollowness}`,
  );
});

test("a card's thin rules joined into one wide net are not a bezel, whichever way the photo is turned", async () => {
  // A pale card filling a 600 × 381 photo, ruled every 110 px with 2-px dark lines (a licence's
  // form, its lettering joining them), as the real specimen scans are.
  const w = 600;
  const h = 381;
  const grey = new Uint8Array(w * h).fill(225);
  for (let y = 20; y < h - 20; y++)
    for (let x = 20; x < w - 20; x++)
      if ((x - 20) % 110 < 2 || (y - 20) % 110 < 2 || y === h - 22 || x === w - 22) grey[y * w + x] = 30;
  const jpeg = await sharp(Buffer.from(grey), { raw: { width: w, height: h, channels: 1 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  for (const angle of [0, 90, 270]) {
    const front = await sharp(jpeg).rotate(angle).jpeg({ quality: 92 }).toBuffer();
    const { measurements } = await documentSpoofCheck.run({ front });
    const bezel = measurements.cues.find((c) => c.name.includes('bezel'));
    assert.equal(bezel?.score, 0, `turned ${angle}°: ${JSON.stringify(measurements.front.frame)}`);
  }
});
