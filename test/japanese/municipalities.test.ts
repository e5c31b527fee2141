import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanAddress, isPlausibleAddress } from '../../src/checks/ocr/correct-fields.ts';
import {
  municipalitiesOf,
  namesKnownMunicipality,
  PREFECTURES,
  prefectureOfMunicipality,
  prefectureShortName,
  restoreMunicipality,
  restorePrefecture,
} from '../../src/japanese/index.ts';

describe('municipalities', () => {
  it('lists the municipalities of every prefecture', () => {
    for (const p of PREFECTURES) assert.ok(municipalitiesOf(p).length > 0, p);
    assert.ok(municipalitiesOf('東京都').includes('千代田区'));
    assert.ok(municipalitiesOf('神奈川県').includes('横浜市旭区'));
    assert.deepEqual(municipalitiesOf('見本県'), []);
  });

  it('names the one prefecture a municipality lies in, and none when two have it', () => {
    assert.equal(prefectureOfMunicipality('上北郡おいらせ町八幡245', PREFECTURES), '青森県');
    assert.equal(prefectureOfMunicipality('横浜市旭区中尾1-1-1', PREFECTURES), '神奈川県');
    assert.equal(prefectureOfMunicipality('府中市宮町1-50', PREFECTURES), undefined); // 東京都 and 広島県
    assert.equal(prefectureOfMunicipality('見本市見本町1-1-1', PREFECTURES), undefined);
  });

  it("gives each prefecture's short name as a commission writes it (鳥取公委, 東京公委, 北海道公委)", () => {
    assert.deepEqual(
      ['鳥取県', '東京都', '北海道', '大阪府', '京都府', '神奈川県'].map(prefectureShortName),
      ['鳥取', '東京', '北海道', '大阪', '京都', '神奈川'],
    );
    assert.equal(new Set(PREFECTURES.map(prefectureShortName)).size, 47);
  });

  it('restores a municipality misread by one character, and only then', () => {
    assert.equal(restoreMunicipality('東京都二代田区霞が関2-1-2', '東京都'), '東京都千代田区霞が関2-1-2');
    // Already a known name (中野区 is one character from 中央区): unchanged.
    assert.equal(restoreMunicipality('東京都中野区中央1-2', '東京都'), '東京都中野区中央1-2');
    // Two names one character away (加川市: 旭川市 or 砂川市): no guess.
    assert.equal(restoreMunicipality('北海道加川市三条通5丁目', '北海道'), '北海道加川市三条通5丁目');
    // Two-character names are too short to restore (港区 / 北区).
    assert.equal(restoreMunicipality('東京都南区1-1', '東京都'), '東京都南区1-1');
  });

  it('restores a municipality whose name lost one glyph, when no other name fits', () => {
    // 東伯郡琴浦町 read without its 琴 (a validation-corpus misreading's kind).
    assert.equal(
      restoreMunicipality('鳥取県東伯郡浦町曙町一丁目12番1号', '鳥取県'),
      '鳥取県東伯郡琴浦町曙町一丁目12番1号',
    );
    // A three-character name one glyph short is two characters: too little to tell (府中市 / 中市).
    assert.equal(restoreMunicipality('東京都中市宮町1-1', '東京都'), '東京都中市宮町1-1');
  });

  it('takes the fit that keeps two characters more than any other, and no fit when they keep as many', () => {
    // 天草郡苓北町 keeps five characters of 天草郡共北町, 天草市 (misread 市 → 郡) two.
    assert.equal(
      restoreMunicipality('熊本県天草郡共北町宮前461番地18', '熊本県'),
      '熊本県天草郡苓北町宮前461番地18',
    );
    // 黒川郡大和町 and 黒川郡大郷町 both keep five of 黒川郡大卿町: no guess.
    assert.equal(restoreMunicipality('宮城県黒川郡大卿町港町17', '宮城県'), '宮城県黒川郡大卿町港町17');
  });

  it('tells an address that names a municipality of its prefecture from one that does not', () => {
    assert.equal(namesKnownMunicipality('東京都千代田区霞が関2-1-2', PREFECTURES), true);
    assert.equal(namesKnownMunicipality('東京都村市栄町7-40-23', PREFECTURES), false);
    // No list to hold it to: a designated city printed alone, a specimen's prefecture.
    assert.equal(namesKnownMunicipality('横浜市旭区中尾1-1-1', PREFECTURES), true);
    assert.equal(namesKnownMunicipality('見本県見本市見本町1-1-1', PREFECTURES), true);
  });

  it('restores a misread prefecture from the municipality after it', () => {
    assert.equal(
      restorePrefecture('橋賠県北九州市小倉北区魚町1丁目', PREFECTURES),
      '福岡県北九州市小倉北区魚町1丁目',
    );
    // 府中市 is in two prefectures: no guess.
    assert.equal(restorePrefecture('東京府府中市宮町1-1', PREFECTURES), '東京府府中市宮町1-1');
  });

  it('reads a dot between the numbers of an address as its dash, and drops print past a wide gap', () => {
    assert.equal(
      cleanAddress('長野県木曽郡木祖村春日1451.16ライオンズマンションB-103'),
      '長野県木曽郡木祖村春日1451-16ライオンズマンションB-103',
    );
    assert.equal(cleanAddress('東京都品川区住吉5-9-7                Mi        の'), '東京都品川区住吉5-9-7');
    // The one space before a building name stays.
    assert.equal(
      cleanAddress('東京都品川区住吉5丁目9番7号 コーポ桜101'),
      '東京都品川区住吉5丁目9番7号 コーポ桜101',
    );
  });

  it('reads addresses through cleanAddress', () => {
    assert.equal(cleanAddress('東京都生代田区霞が関2- 1 - 2'), '東京都千代田区霞が関2-1-2');
    assert.equal(cleanAddress('横浜市旭区中尾1一 -1一1'), '横浜市旭区中尾1-1-1');
    // A specimen's 見本県: the shape of a prefecture, delivered as read.
    assert.equal(cleanAddress('見本県見本市見本町1一1一 1    )'), '見本県見本市見本町1-1-1');
    assert.ok(isPlausibleAddress('見本県見本市見本町1-1-1'));
    assert.ok(!isPlausibleAddress('見本県見本'));
  });
});
