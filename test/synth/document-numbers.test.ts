import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse as parseMrz } from 'mrz';
import { hasValidLicenceCheckDigit, licenceCheckDigit } from '../../src/documents/index.ts';
import {
  breakMyNumberCheckDigit,
  generateIssuedLicenceNumber,
  generateMyNumber,
  isValidMyNumber,
  myNumberCheckDigit,
} from '../../src/synth/document-numbers.ts';
import { formatEraDate, formatPassportDate, formatWesternDate } from '../../src/synth/japanese-date.ts';
import { breakMrzCheckDigit, passportMrz } from '../../src/synth/mrz.ts';
import { Random } from '../../src/synth/random.ts';

test('My Number check digit follows the official formula (worked example 98320567321 → 4)', () => {
  assert.equal(myNumberCheckDigit('98320567321'), 4);
  assert.equal(isValidMyNumber('983205673214'), true);
  assert.equal(isValidMyNumber('983205673210'), false);
  // Lowest digit 1 has weight Q1 = 2: r = 2, check = 11 − 2 = 9. All zeros: r = 0 ≤ 1 → 0.
  assert.equal(myNumberCheckDigit('00000000001'), 9);
  assert.equal(myNumberCheckDigit('00000000000'), 0);
});

test('generated My Numbers verify, and a broken one does not', () => {
  const random = new Random('numbers');
  for (let i = 0; i < 200; i++) {
    const number = generateMyNumber(random);
    assert.equal(isValidMyNumber(number), true, number);
    assert.equal(isValidMyNumber(breakMyNumberCheckDigit(number, random)), false);
  }
});

test('passport MRZ lines are 44 characters and validate with the mrz package', () => {
  const lines = passportMrz({
    issuingState: 'JPN',
    lastName: 'HASEGAWA',
    firstName: 'MAYUMI',
    passportNumber: 'TK1234567',
    nationality: 'JPN',
    birthDate: '1990-04-01',
    sex: 'F',
    expiryDate: '2031-03-31',
  });
  assert.equal(lines[0], 'P<JPNHASEGAWA<<MAYUMI'.padEnd(44, '<'));
  assert.equal(lines[0].length, 44);
  assert.equal(lines[1].length, 44);
  const result = parseMrz(lines);
  assert.equal(result.valid, true);
  assert.equal(result.fields.documentNumber, 'TK1234567');
  assert.equal(result.fields.birthDate, '900401');
  assert.equal(result.fields.expirationDate, '310331');
  assert.equal(parseMrz(breakMrzCheckDigit(lines, 3)).valid, false);
});

test('dates print in each document form', () => {
  assert.equal(formatEraDate('1990-04-01'), '平成2年4月1日');
  assert.equal(formatEraDate('2019-05-01'), '令和元年5月1日');
  assert.equal(formatEraDate('1989-01-07'), '昭和64年1月7日');
  assert.equal(formatEraDate('1989-01-08', { padded: true }), '平成元年01月08日');
  assert.equal(formatWesternDate('2028-05-01'), '2028年05月01日');
  assert.equal(formatPassportDate('1990-04-01'), '01 APR 1990');
});

test('the licence number check digit: its eleventh digit, mod 11 with weights 5,4,3,2,7,6,5,4,3,2', () => {
  // 450599999940: 4·5 + 5·4 + 0·3 + 5·2 + 9·(7+6+5+4+3+2) = 293; 293 mod 11 = 7; 11 − 7 = 4.
  assert.equal(licenceCheckDigit('4505999999'), 4);
  assert.equal(hasValidLicenceCheckDigit('450599999940'), true);
  assert.equal(hasValidLicenceCheckDigit('450599999950'), false);
  // The remainders 1 and 0 give 10 and 11, taken mod 10: 0 and 1.
  assert.equal(licenceCheckDigit('0000000006'), 0);
  assert.equal(licenceCheckDigit('0000000000'), 1);
  assert.equal(hasValidLicenceCheckDigit('12345678903'), false);
});

test('issued licence numbers: a commission code, the first year, and a check digit that holds', () => {
  const random = new Random('licence numbers');
  for (let i = 0; i < 200; i++) {
    const number = generateIssuedLicenceNumber(random, 1998, '東京都');
    assert.match(number, /^\d{2}98\d{8}$/);
    assert.equal(hasValidLicenceCheckDigit(number), true, number);
  }
});
