import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DRIVERS_LICENSE, MY_NUMBER_CARD } from '../../src/documents/document-types.ts';
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

// 645 units wide at the My Number card's size, 583 at the residence card's: both run past the room
// their layout gives the address (the My Number card's address panel, the residence card's portrait).
const LONG_ADDRESS = '鹿児島県鹿児島市東千石町12丁目28番17号 パークハイツ緑ヶ丘1203';

const ADDRESS_ROOM = {
  // The official front: the address in its panel, which ends before the card's title box.
  my_number_card: {
    left: (MY_NUMBER_CARD.front.address?.[0] ?? 0) + 12,
    end: MY_NUMBER_CARD.titleRegion.region[0],
  },
  residence_card: { left: 100, end: 630 },
};

for (const documentType of ['my_number_card', 'residence_card'] as const) {
  test(`${documentType}: a long address is printed condensed and ends before the next printed item`, () => {
    const record = createDocumentRecord(new Random('layout'), documentType, 'F', '2026-04-01');
    record.identity.address = LONG_ADDRESS;
    const layout = layoutDocumentSide(record, 'front');
    assert.ok(layout?.portrait);
    const { left, end } = ADDRESS_ROOM[documentType];
    const condensed = pathExtents(layout.svg).filter((p) => p.left === left && p.scaled);
    assert.equal(condensed.length, 1, 'one condensed line starting where the address does');
    assert.ok(condensed[0]!.right < end, `${condensed[0]!.right} < ${end}`);

    // A short address keeps its natural width.
    record.identity.address = '東京都港区芝1丁目2番3号';
    const short = layoutDocumentSide(record, 'front');
    assert.equal(pathExtents(short?.svg ?? '').filter((p) => p.left === left && p.scaled).length, 0);
  });
}

test('the driving licence and the My Number card put their fields where the document definitions place them', () => {
  for (const definition of [DRIVERS_LICENSE, MY_NUMBER_CARD]) {
    const record = createDocumentRecord(new Random('layout'), definition.type, 'F', '2026-04-01');
    const layout = layoutDocumentSide(record, 'front');
    assert.ok(layout?.portrait);
    const { x, y, width, height } = layout.portrait;
    assert.deepEqual([x, y, x + width, y + height], definition.portrait, `${definition.type} portrait box`);
    // Each value drawn for a field starts inside that field's zone.
    const paths = pathExtents(layout.svg);
    for (const field of ['name', 'birthDate', 'address', 'expiryDate'] as const) {
      const zone = definition.front[field];
      assert.ok(zone);
      assert.ok(
        paths.some((p) => p.left >= zone[0] && p.left < zone[2] && p.right <= zone[2] + definition.tolerance),
        `${definition.type} ${field} drawn within ${zone}`,
      );
    }
  }
});
