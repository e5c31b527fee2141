import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareIdentityFields } from '../../src/japanese/index.ts';

const ocr = {
  lastName: '髙橋',
  firstName: '惠子',
  birthDate: '1990-04-01',
  address: '東京都千代田区霞が関１丁目２番３号',
};

describe('compareIdentityFields', () => {
  it('matches registered data written in common forms and another notation', () => {
    const result = compareIdentityFields(
      { lastName: '高橋', firstName: '恵子', birthDate: '1990-04-01', address: '東京都千代田区霞が関一丁目' },
      ocr,
    );
    assert.deepEqual(result, {
      lastName: true,
      firstName: true,
      birthDate: true,
      address: true,
      mismatchedFields: [],
    });
  });

  it('reports only the fields present in expected', () => {
    const result = compareIdentityFields({ lastName: '高橋', birthDate: '1990-04-01' }, ocr);
    assert.deepEqual(result, { lastName: true, birthDate: true, mismatchedFields: [] });
    assert.equal('firstName' in result, false);
    assert.equal('address' in result, false);
  });

  it('treats blank expected fields as not given', () => {
    assert.deepEqual(compareIdentityFields({ lastName: '  ', firstName: '' }, ocr), { mismatchedFields: [] });
  });

  it('lists each mismatched field in a fixed order', () => {
    const result = compareIdentityFields(
      { address: '大阪府大阪市', lastName: '高橋', firstName: '恵美', birthDate: '1990-04-02' },
      ocr,
    );
    assert.equal(result.lastName, true);
    assert.equal(result.firstName, false);
    assert.equal(result.birthDate, false);
    assert.equal(result.address, false);
    assert.deepEqual(result.mismatchedFields, ['firstName', 'birthDate', 'address']);
  });

  it('compares birth dates as dates, whatever their notation', () => {
    assert.equal(
      compareIdentityFields({ birthDate: '1990-04-01' }, { birthDate: '平成2年4月1日' }).birthDate,
      true,
    );
    assert.equal(
      compareIdentityFields({ birthDate: '1990-04-01' }, { birthDate: 'H2.4.2' }).birthDate,
      false,
    );
  });

  it('does not match a field the actual data lacks', () => {
    const result = compareIdentityFields({ lastName: '高橋', address: '東京都' }, { lastName: '高橋' });
    assert.deepEqual(result, { lastName: true, address: false, mismatchedFields: ['address'] });
  });

  it('leaves a field the OCR could not read out when asked (typed data is not contradicted by nothing)', () => {
    const typed = { lastName: '高橋', address: '東京都千代田区霞が関1丁目2番3号' };
    const result = compareIdentityFields(typed, { lastName: '高橋' }, { unreadIsUnknown: true });
    assert.deepEqual(result, { lastName: true, mismatchedFields: [] });
    // A value read and different is still a mismatch.
    const wrong = compareIdentityFields(typed, { lastName: '髙田' }, { unreadIsUnknown: true });
    assert.deepEqual(wrong.mismatchedFields, ['lastName']);
  });

  it('takes an address with a character misread by the OCR as the same address', () => {
    const typed = { address: '福岡県福岡市博多区博多駅前4丁目16番2号 コーポ青葉509' };
    assert.equal(
      compareIdentityFields(typed, { address: '福岡県福岡市博多区博多駅前4丁目16番2号 コーボ青葉509' })
        .address,
      true,
    );
    // …but not one whose numbers differ.
    assert.equal(
      compareIdentityFields(typed, { address: '福岡県福岡市博多区博多駅前4丁目16番3号 コーポ青葉509' })
        .address,
      false,
    );
  });

  it('does not match an unreadable expected birth date', () => {
    assert.equal(
      compareIdentityFields({ birthDate: '2023-02-30' }, { birthDate: '2023-02-30' }).birthDate,
      false,
    );
  });

  it('matches names typed in kana against kana, not against kanji', () => {
    assert.equal(compareIdentityFields({ lastName: 'たかはし' }, { lastName: 'タカハシ' }).lastName, true);
    assert.equal(compareIdentityFields({ lastName: 'たかはし' }, { lastName: '高橋' }).lastName, false);
  });
});
