// Cards mimoto does not accept, in the forms a customer might offer them instead of a supported
// one: they print a name, a birth date, often an address and a portrait, as the supported cards
// do. The validation corpus offers them as a supported type (bench:ocr-accuracy --unsupported);
// none may be approvable. The forms follow the public layouts of each kind; the issuers' names
// are our own, and so are the background patterns (no emblem, no seal).

import {
  CARD_H,
  CARD_W,
  drawing,
  fitted,
  frame,
  guilloche,
  LABEL,
  type LayoutOptions,
  type SideLayout,
  svgDocument,
  VALUE,
} from './document-layouts.ts';
import type { Identity } from './identity.ts';
import { addYears, formatEraDate, formatWesternDate } from './japanese-date.ts';
import type { Random } from './random.ts';

export const UNSUPPORTED_KINDS = [
  'health_insurance_card',
  'basic_resident_register_card',
  'student_card',
  'cash_card',
] as const;
export type UnsupportedKind = (typeof UNSUPPORTED_KINDS)[number];

/** What one such card prints beyond the identity: its numbers and dates, drawn from `random`. */
export interface UnsupportedCard {
  kind: UnsupportedKind;
  identity: Identity;
  issueDate: string;
  expiryDate: string;
  number: string;
}

export function createUnsupportedCard(
  random: Random,
  kind: UnsupportedKind,
  identity: Identity,
  referenceDate: string,
): UnsupportedCard {
  const issueDate = addYears(referenceDate, -random.int(1, 4));
  return { kind, identity, issueDate, expiryDate: addYears(issueDate, 5), number: random.digits(8) };
}

/** The front of the card (the side a customer would photograph as a supported card's front). */
export function layoutUnsupportedFront(card: UnsupportedCard, options: LayoutOptions = {}): SideLayout {
  switch (card.kind) {
    case 'health_insurance_card':
      return healthInsuranceCard(card, options);
    case 'basic_resident_register_card':
      return residentRegisterCard(card, options);
    case 'student_card':
      return studentCard(card, options);
    case 'cash_card':
      return cashCard(card, options);
  }
}

const sexOf = (identity: Identity) => (identity.sex === 'M' ? '男' : '女');

/** 健康保険被保険者証: the title across the top, 記号・番号, the insured's name, no portrait. */
function healthInsuranceCard(card: UnsupportedCard, options: LayoutOptions): SideLayout {
  const { identity } = card;
  const g = drawing(options, '#eef5f8');
  g.parts.push(frame(CARD_W, CARD_H, '#eef6fa', guilloche(CARD_W, CARD_H, '#c9dfe9', 30, 40)));
  g.text('健康保険被保険者証', 40, 66, { ...VALUE, size: 34, weight: 'bold', fill: '#1d4f6e' });
  g.text('本人（被保険者）', 560, 62, { ...VALUE, size: 20 });
  g.text(`${formatEraDate(card.issueDate)}交付`, 560, 100, { ...LABEL, size: 16 });
  g.text('記号', 40, 130, LABEL);
  g.text(card.number.slice(0, 4), 90, 132, VALUE);
  g.text('番号', 220, 130, LABEL);
  g.text(card.number.slice(4, 6), 270, 132, VALUE);
  g.text('氏名', 40, 190, LABEL);
  g.text(`${identity.lastName}　${identity.firstName}`, 120, 194, { ...VALUE, size: 30 });
  g.text('生年月日', 40, 246, LABEL);
  g.text(formatEraDate(identity.birthDate), 120, 250, VALUE);
  g.text('性別', 520, 246, LABEL);
  g.text(sexOf(identity), 570, 250, VALUE);
  g.text('資格取得年月日', 40, 302, LABEL);
  g.text(formatEraDate(card.issueDate), 170, 306, VALUE);
  g.text('事業所名称', 40, 358, LABEL);
  g.text('株式会社みもと商事', 150, 362, VALUE);
  g.text('保険者番号', 40, 414, LABEL);
  g.text(`0613${card.number.slice(2, 6)}`, 150, 418, VALUE);
  g.text('保険者名称', 40, 470, LABEL);
  g.text('みもと健康保険組合', 150, 474, VALUE);
  return { width: CARD_W, height: CARD_H, svg: svgDocument(CARD_W, CARD_H, g.parts.join('')) };
}

/** 住民基本台帳カード (写真付き): name, address, birth date, sex and validity beside a portrait. */
function residentRegisterCard(card: UnsupportedCard, options: LayoutOptions): SideLayout {
  const { identity } = card;
  const g = drawing(options, '#f7f6ee');
  g.parts.push(frame(CARD_W, CARD_H, '#f8f7ef', guilloche(CARD_W, CARD_H, '#ddd9bf', 26, 70)));
  g.text('住民基本台帳カード', 40, 60, { ...VALUE, size: 28, weight: 'bold', fill: '#5b5420' });
  g.text('氏名', 40, 124, LABEL);
  g.text(`${identity.lastName}　${identity.firstName}`, 100, 128, { ...VALUE, size: 30 });
  g.text('住所', 40, 196, LABEL);
  g.text(identity.address, 100, 200, fitted(identity.address, { ...VALUE, size: 22 }, 500));
  g.text('生年月日', 40, 268, LABEL);
  g.text(`${formatEraDate(identity.birthDate)}生`, 120, 272, VALUE);
  g.text('性別', 420, 268, LABEL);
  g.text(sexOf(identity), 470, 272, VALUE);
  g.text('有効期限', 40, 340, LABEL);
  g.text(`${formatEraDate(card.expiryDate)}`, 120, 344, VALUE);
  g.text('みもと市長', 40, 480, { ...VALUE, size: 20 });
  g.parts.push(`<rect x="630" y="120" width="186" height="240" fill="#e6e3d2"/>`);
  return {
    width: CARD_W,
    height: CARD_H,
    svg: svgDocument(CARD_W, CARD_H, g.parts.join('')),
    portrait: { x: 630, y: 120, width: 186, height: 240 },
  };
}

/** 学生証: the school, the student number, name, birth date and validity beside a portrait. */
function studentCard(card: UnsupportedCard, options: LayoutOptions): SideLayout {
  const { identity } = card;
  const g = drawing(options, '#f4f4f8');
  g.parts.push(
    frame(CARD_W, CARD_H, '#ffffff', `<rect y="0" width="${CARD_W}" height="96" fill="#2f3f7a"/>`),
  );
  g.text('みもと大学', 40, 62, { ...VALUE, size: 36, weight: 'bold', fill: '#ffffff' });
  g.text('学生証 STUDENT ID CARD', 420, 60, { ...VALUE, size: 24, fill: '#ffffff' });
  g.text('学籍番号', 40, 150, LABEL);
  g.text(`${card.issueDate.slice(2, 4)}A${card.number.slice(0, 4)}`, 130, 154, { ...VALUE, size: 28 });
  g.text('氏名', 40, 220, LABEL);
  g.text(`${identity.lastName} ${identity.firstName}`, 130, 224, { ...VALUE, size: 30 });
  g.text('生年月日', 40, 290, LABEL);
  g.text(formatWesternDate(identity.birthDate), 130, 294, VALUE);
  g.text('有効期限', 40, 360, LABEL);
  g.text(formatWesternDate(card.expiryDate), 130, 364, VALUE);
  g.text('上記の者は本学の学生であることを証明する。', 40, 450, { ...VALUE, size: 20 });
  g.text('みもと大学長', 40, 500, { ...VALUE, size: 20 });
  g.parts.push(`<rect x="630" y="130" width="186" height="240" fill="#e4e6ee"/>`);
  return {
    width: CARD_W,
    height: CARD_H,
    svg: svgDocument(CARD_W, CARD_H, g.parts.join('')),
    portrait: { x: 630, y: 130, width: 186, height: 240 },
  };
}

/** A bank's キャッシュカード: the bank, a card number in groups, the holder's name in Latin letters. */
function cashCard(card: UnsupportedCard, options: LayoutOptions): SideLayout {
  const { identity } = card;
  const g = drawing(options, '#1f5f4a');
  g.parts.push(frame(CARD_W, CARD_H, '#2a7a5f', guilloche(CARD_W, CARD_H, '#3f9477', 40, 10)));
  g.text('みもと銀行', 40, 70, { ...VALUE, size: 34, weight: 'bold', fill: '#ffffff' });
  g.text('キャッシュカード', 560, 68, { ...VALUE, size: 24, fill: '#ffffff' });
  g.parts.push(`<rect x="60" y="170" width="120" height="90" rx="10" fill="#d8c27a"/>`);
  const digits = `${card.number}${card.number}`;
  g.text(digits.match(/.{4}/g)?.join(' ') ?? digits, 60, 360, {
    ...VALUE,
    size: 40,
    fill: '#ffffff',
    letterSpacing: 4,
  });
  g.text(`${identity.lastNameLatin} ${identity.firstNameLatin}`, 60, 450, {
    ...VALUE,
    size: 28,
    fill: '#ffffff',
  });
  g.text(`VALID THRU ${card.expiryDate.slice(5, 7)}/${card.expiryDate.slice(2, 4)}`, 560, 450, {
    ...VALUE,
    size: 22,
    fill: '#ffffff',
  });
  return { width: CARD_W, height: CARD_H, svg: svgDocument(CARD_W, CARD_H, g.parts.join('')) };
}
