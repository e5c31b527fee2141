import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  licenceExpiryFitsBirthDate,
  licenceExpiryFor,
  myNumberExpiryFitsBirthDate,
} from '../../src/documents/index.ts';

describe('a driving licence expires one month after a birthday (道路交通法 第92条の2)', () => {
  it('gives the same day of the next month', () => {
    // The specimen licences print 昭和61年5月1日 → 6月1日 and 昭和61年10月24日 → 11月24日.
    assert.equal(licenceExpiryFor('1986-05-01', 2024), '2024-06-01');
    assert.equal(licenceExpiryFor('1986-10-24', 2024), '2024-11-24');
    assert.equal(licenceExpiryFor('1975-12-18', 2028), '2029-01-18');
  });

  it('ends on the last day of a shorter month', () => {
    assert.equal(licenceExpiryFor('1990-01-31', 2027), '2027-02-28');
    assert.equal(licenceExpiryFor('1990-01-30', 2028), '2028-02-29');
    assert.equal(licenceExpiryFor('1990-03-31', 2027), '2027-04-30');
    assert.equal(licenceExpiryFor('1990-08-31', 2027), '2027-09-30');
  });

  it('takes 2月28日 as the birthday of someone born on 2月29日 in a year that is not a leap year (備考 五)', () => {
    assert.equal(licenceExpiryFor('1988-02-29', 2027), '2027-03-28');
    assert.equal(licenceExpiryFor('1988-02-29', 2028), '2028-03-29');
  });

  it('tells a printed expiry that its birth date cannot give', () => {
    assert.equal(licenceExpiryFitsBirthDate('1986-05-01', '2024-06-01'), true);
    assert.equal(licenceExpiryFitsBirthDate('1975-12-18', '2029-01-18'), true);
    // 昭和48年11月30日 misread as 1月30日: the expiry says the birthday is in November.
    assert.equal(licenceExpiryFitsBirthDate('1973-01-30', '2027-12-30'), false);
    assert.equal(licenceExpiryFitsBirthDate('1973-11-30', '2027-12-30'), true);
    assert.equal(licenceExpiryFitsBirthDate('1986-05-01', '2024-05-31'), false);
  });
});

describe("a My Number card expires on a birthday (a Japanese national's card)", () => {
  it('tells an expiry on the birthday from one beside it', () => {
    // The specimen card prints 平成元年3月31日生 and 2025年3月31日まで有効.
    assert.equal(myNumberExpiryFitsBirthDate('1989-03-31', '2025-03-31'), true);
    assert.equal(myNumberExpiryFitsBirthDate('1989-03-31', '2025-08-31'), false);
    assert.equal(myNumberExpiryFitsBirthDate('1988-02-29', '2027-02-28'), true);
    assert.equal(myNumberExpiryFitsBirthDate('1988-02-29', '2028-02-29'), true);
  });
});
