// bench:real's genuine-document figures: per image and per distinct document, and an expired
// document read as valid counted once whatever number of its images do.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { genuineFigures, genuineFiguresSection } from '../../bench/lib/genuine-figures.ts';

test('high, medium and no verdict per image and per distinct document; expired but read valid', () => {
  const f = genuineFigures(
    [
      { document: 'a', kind: 'as given', verdict: 'low' },
      { document: 'a', kind: 'turned 90°', verdict: 'high' },
      { document: 'a', kind: 'on a table', verdict: 'high' },
      { document: 'b', kind: 'as given', verdict: 'medium' },
      { document: 'c', kind: 'as given', verdict: 'no verdict' },
    ],
    [
      { document: 'a', printed: '1998-01-04', read: '2098-01-04' },
      { document: 'b', printed: '2010-05-01', read: '2010-05-01' },
      { document: 'c', printed: '2040-01-01', read: undefined },
    ],
    new Date('2026-12-02T00:00:00Z'),
  );
  assert.deepEqual(f.high, { images: 2, documents: 1 });
  assert.deepEqual(f.medium, { images: 1, documents: 1 });
  assert.deepEqual(f.noVerdict, { images: 1, documents: 1 });
  assert.deepEqual([f.images, f.documents], [5, 3]);
  // c is not expired; a is read as 2098: one of the two expired documents.
  assert.deepEqual(f.expiredButValid, { documents: 1, of: 2 });
  const text = genuineFiguresSection(f, {
    label: 'seed 7',
    rows: [
      { presentations: 'screen_replay', n: 10, noVerdict: 0, detected: 9 },
      { presentations: 'bona fide', n: 20, noVerdict: 2, detected: 0 },
    ],
  });
  assert.match(text, /\| documentSpoofCheck high \| 2\/5 \(40\.0 %\) \| 1\/3 \(33\.3 %\) \|/);
  assert.match(text, /\| screen_replay \| 10 \| 0 \| 10\.0 % \|/);
  assert.match(text, /\| bona fide \(BPCER\) \| 20 \| 2 \| 0\.0 % \|/);
});
