// Where the portrait's outline runs (portrait-edges.ts) on drawn fronts, already rectified: the
// issued portrait in its box, a print glued over it turned and off centre, and a print cut smaller
// than the box so that the issued portrait shows around it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  measurePortraitEdges,
  portraitPasteEvidence,
} from '../../../src/checks/document-spoof/portrait-edges.ts';
import { portraitBoxFor } from '../../../src/checks/ocr/document-regions.ts';
import type { GreyImage } from '../../../src/checks/ocr/find-document.ts';

const W = 856;
const H = 540;
const [X0, Y0, X1, Y1] = portraitBoxFor('residence_card') as [number, number, number, number];

/** A residence card front: light card with a little grain, the issued portrait (a dark, textured photo) in its box. */
function issuedCard(): Float64Array {
  const page = new Float64Array(W * H);
  let seed = 7;
  const grain = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648 - 0.5) * 6;
  };
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inBox = x >= X0 && x < X1 && y >= Y0 && y < Y1;
      page[y * W + x] = (inBox ? 95 + 35 * Math.sin(x / 9) * Math.cos(y / 13) : 232) + grain();
    }
  return page;
}

/**
 * Glues a print (a lighter, differently textured photo) of `scale` × the box, centred `dx`, `dy`
 * off the box's centre and turned `degrees` clockwise, over the card; edges anti-aliased.
 */
function gluePrint(page: Float64Array, { dx = 0, dy = 0, degrees = 0, scale = 1 }): void {
  const cx = (X0 + X1) / 2 + dx;
  const cy = (Y0 + Y1) / 2 + dy;
  const halfW = ((X1 - X0) * scale) / 2;
  const halfH = ((Y1 - Y0) * scale) / 2;
  const [cos, sin] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  for (let y = Y0 - 30; y < Y1 + 30; y++)
    for (let x = X0 - 30; x < X1 + 30; x++) {
      let covered = 0;
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const px = x + (sx + 0.5) / 4 - cx;
          const py = y + (sy + 0.5) / 4 - cy;
          // Into the print's own frame (it is turned clockwise on the card, y pointing down).
          const u = cos * px + sin * py;
          const v = -sin * px + cos * py;
          if (Math.abs(u) <= halfW && Math.abs(v) <= halfH) covered++;
        }
      const i = y * W + x;
      const print = 160 + 30 * Math.cos(x / 7) * Math.sin(y / 17);
      page[i] = (page[i] as number) * (1 - covered / 16) + print * (covered / 16);
    }
}

const toGrey = (page: Float64Array): GreyImage => ({
  data: Uint8Array.from(page, (v) => Math.max(0, Math.min(255, Math.round(v)))),
  width: W,
  height: H,
});

const evidenceOf = (page: Float64Array, sharp = true) =>
  portraitPasteEvidence(measurePortraitEdges(toGrey(page), 'residence_card'), sharp);

test('the issued portrait printed in its box: no side off the box, not turned', () => {
  const edges = measurePortraitEdges(toGrey(issuedCard()), 'residence_card');
  for (const edge of edges.filter((e) => e.side !== 'top')) {
    // The step between two pixels reads at either of them: within a unit.
    assert.ok(Math.abs(edge.offset) <= 1, `${edge.side} edge on the box (${edge.offset})`);
    assert.equal(edge.angle, 0, `${edge.side} edge square to the card`);
    assert.ok(edge.atBox >= edge.strength, `${edge.side}: the box's own edge is the strongest`);
  }
  assert.deepEqual(evidenceOf(issuedCard()), { displacement: [], tilt: 0 });
});

test('a print turned 2° and glued 5 units right and down: its outline is turned and off the box', () => {
  const page = issuedCard();
  gluePrint(page, { dx: 5, dy: 5, degrees: 2, scale: 1.04 });
  const { displacement, tilt } = evidenceOf(page);
  assert.ok(Math.abs(tilt - 2) <= 0.5, `turned ${tilt}°`);
  assert.ok(displacement.length >= 2 && (displacement[1] as number) > 4.5, JSON.stringify(displacement));
  // The same print turned the other way reads the other way, as much.
  const other = issuedCard();
  gluePrint(other, { dx: 5, dy: 5, degrees: -2, scale: 1.04 });
  assert.ok(Math.abs(evidenceOf(other).tilt - 2) <= 0.5);
});

test('a print cut 10 units smaller than the box: the issued portrait shows beside it, on a sharp capture', () => {
  const page = issuedCard();
  gluePrint(page, { scale: (X1 - X0 - 20) / (X1 - X0) });
  const edges = measurePortraitEdges(toGrey(page), 'residence_card');
  const left = edges.find((e) => e.side === 'left');
  // The box's edge (the issued portrait against the card) stays the strongest; the print's edge
  // runs inside it.
  assert.ok(left && Math.abs(left.offset) <= 1, JSON.stringify(left));
  assert.ok(left && left.second.offset <= -8 && left.second.offset >= -12, JSON.stringify(left?.second));
  const { displacement, tilt } = portraitPasteEvidence(edges, true);
  assert.equal(tilt, 0);
  assert.ok(displacement.length === 3 && (displacement[2] as number) >= 8, JSON.stringify(displacement));
  // On a blurred capture a second edge is the first one's halo: not read.
  assert.deepEqual(portraitPasteEvidence(edges, false), { displacement: [], tilt: 0 });
});

test('a side with no edge (a photo as light as the card) is not read', () => {
  const page = new Float64Array(W * H).fill(232);
  assert.deepEqual(evidenceOf(page), { displacement: [], tilt: 0 });
});
