import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutDocumentSide } from '../../src/synth/document-layouts.ts';
import { createDocumentRecord } from '../../src/synth/document-record.ts';
import { Random } from '../../src/synth/random.ts';

/** Where each drawn path starts and how far right it reaches, in layout units. */
function pathExtents(svg: string): { left: number; right: number; scaled: boolean }[] {
  return [
    ...svg.matchAll(
      /<path transform="translate\(([\d.]+) [\d.]+\)(?: scale\(([\d.]+) 1\))?" [^>]*d="([^"]*)"/g,
    ),
  ].map(([, left, scale, d]) => {
    const numbers = (d ?? '').match(/-?[\d.]+/g)?.map(Number) ?? [];
    const xs = numbers.filter((_, i) => i % 2 === 0);
    return {
      left: Number(left),
      right: Number(left) + Math.max(...xs) * Number(scale ?? 1),
      scaled: scale !== undefined,
    };
  });
}

// 645 units wide at the My Number card's size, 583 at the residence card's: both run past the portrait.
const LONG_ADDRESS = '鹿児島県鹿児島市東千石町12丁目28番17号 パークハイツ緑ヶ丘1203';

for (const documentType of ['my_number_card', 'residence_card'] as const) {
  test(`${documentType}: a long address is printed condensed and ends before the portrait`, () => {
    const record = createDocumentRecord(new Random('layout'), documentType, 'F', '2026-04-01');
    record.identity.address = LONG_ADDRESS;
    const layout = layoutDocumentSide(record, 'front');
    assert.ok(layout?.portrait);
    const condensed = pathExtents(layout.svg).filter((p) => p.left === 100 && p.scaled);
    assert.equal(condensed.length, 1, 'one condensed line starting where the address does');
    assert.ok(condensed[0]!.right < layout.portrait.x, `${condensed[0]!.right} < ${layout.portrait.x}`);

    // A short address keeps its natural width.
    record.identity.address = '東京都港区芝1丁目2番3号';
    const short = layoutDocumentSide(record, 'front');
    assert.equal(pathExtents(short?.svg ?? '').filter((p) => p.left === 100 && p.scaled).length, 0);
  });
}
