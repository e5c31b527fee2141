// An address against the OCR's reading of the document: misread characters are tolerated, numbers
// are not (src/japanese/match-ocr-address.ts). The readings are ones the corpus's OCR produced.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesOcrAddress } from '../../src/japanese/index.ts';

describe('matchesOcrAddress', () => {
  it('is at least the partial match', () => {
    assert.equal(matchesOcrAddress('東京都港区芝公園4丁目', '東京都港区芝公園4丁目2番8号'), true);
    assert.equal(matchesOcrAddress('港区芝公園4-2-8', '東京都港区芝公園四丁目二番八号'), true);
  });

  it('tolerates a character or two misread in a long address', () => {
    const typed = '京都府京都市左京区下鴨本町4丁目2番11号 コーポ青葉105';
    assert.equal(matchesOcrAddress(typed, '京都府京都市左京区下答本町4丁目2番11}号 コーポ青葉105'), true);
    assert.equal(
      matchesOcrAddress(
        '福岡県福岡市博多区博多駅前4丁目16番2号 コーポ青葉509',
        '福岡県福岡市博多区博多駅前4丁目16番2号 コーボ青葉509',
      ),
      true,
    );
  });

  it('accepts a reading cut short in the last number, not one that lost it', () => {
    const typed = '福岡県福岡市博多区博多駅前4丁目18番17号 メゾン桜408';
    assert.equal(matchesOcrAddress(typed, '福岡県福岡市博多区博多駅前4丁目18番17号 メゾン桜4'), true);
    assert.equal(matchesOcrAddress(typed, '福岡県福岡市博多区博多駅前4丁目18番17号 メゾン桜'), false);
  });

  it('never accepts different numbers, another prefecture or a short address with a character off', () => {
    const typed = '京都府京都市左京区下鴨本町4丁目2番11号 コーポ青葉105';
    assert.equal(matchesOcrAddress(typed, '京都府京都市左京区下鴨本町4丁目2番12号 コーポ青葉105'), false);
    assert.equal(matchesOcrAddress(typed, '京都府京都市左京区下鴨本町5丁目2番11号 コーポ青葉105'), false);
    assert.equal(
      matchesOcrAddress('北海道札幌市中央区北一条西5丁目24番11号', '北海道札幌市中央区北二条西5丁目24番11号'),
      false,
    );
    assert.equal(
      matchesOcrAddress('大阪府大阪市北区梅田3丁目1番1号', '東京都大阪市北区梅田3丁目1番1号'),
      false,
    );
    assert.equal(matchesOcrAddress('東京都港区芝公園', '東京都港区芝交園4丁目2番8号'), false);
  });
});
