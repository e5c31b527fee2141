import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance, editsToSubstring } from '../../src/platform/text/edit-distance.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    assert.equal(editDistance('TZ4566707', 'TZ4566707'), 0);
    assert.equal(editDistance('TZ24566707', 'TZ4566707'), 1); // a character read twice
    assert.equal(editDistance('T79268522', 'TZ9268522'), 1); // Z read as 7
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
  });

  it('counts characters, not UTF-16 units', () => {
    assert.equal(editDistance('𠮷野', '吉野'), 1);
  });

  it('stops past the limit and says so with limit + 1', () => {
    assert.equal(editDistance('TZ1111111', 'TZ2222222', 1), 2);
    assert.equal(editDistance('AB', 'ABCDEF', 2), 3);
  });

  it('editsToSubstring: the part may match anywhere inside the whole', () => {
    assert.equal(editsToSubstring('相模大野3-24-6', '神奈川県相模原市南区相模大野3-24-6コーポ緑'), 0);
    assert.equal(editsToSubstring('コーポ緑', '相模大野3-24-6コーポ縁209'), 1);
    assert.equal(editsToSubstring('abc', ''), 3);
  });
});
