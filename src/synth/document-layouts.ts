// The documents as their issuers lay them out: the 運転免許証 and the 個人番号カード front in the
// official layout, their zones, portrait, title and band read from the one definition of each type
// (src/documents/document-types.ts, which cites the sources); what the definition does not place
// (ruled rows, class grid, panels) is drawn where the official specimens print it. The residence card
// and the passport data page follow their public layouts (the 出入国在留管理庁 specimen; ICAO 9303
// TD3: portrait in zone V at the left, the MRZ's two lines of 44 in the bottom band) at the positions
// the OCR reads them. Values in the forms each document prints its dates. No official emblem, seal,
// mascot or copied artwork: the background patterns are our own.
import { DRIVERS_LICENSE, MY_NUMBER_CARD, type Region } from '../documents/index.ts';
import type { DocumentRecord } from './document-record.ts';
import { addYears, formatEraDate, formatPassportDate, formatWesternDate, toEra } from './japanese-date.ts';
import { measureText, type TextStyle, type Typeface, textPath } from './text-paths.ts';

export type Box = { x: number; y: number; width: number; height: number };

export type SideLayout = {
  width: number;
  height: number;
  /** SVG drawn over the background; the portrait is composited into `portrait`. */
  svg: string;
  portrait?: Box;
};

/** Which printed item a text_edit attack altered, drawn with a visible but subtle patch. */
export type LayoutOptions = {
  editedField?: string;
  /** The face the values and labels are printed in (default Gothic); an MRZ keeps its own. */
  typeface?: Typeface;
};

type Draw = {
  parts: string[];
  text(text: string, x: number, y: number, style: TextStyle, field?: string): void;
};

export function drawing(options: LayoutOptions, patchFill: string): Draw {
  const parts: string[] = [];
  return {
    parts,
    text(text, x, y, given, field) {
      const style = given.monospace || !options.typeface ? given : { ...given, family: options.typeface };
      if (field !== undefined && field === options.editedField) {
        // A pasted-over value: a flat patch of a slightly different tone, text a touch heavier
        // and off the baseline, as a crude edit leaves it.
        const width = Math.max(40, text.length * style.size * 0.9 * (style.scaleX ?? 1));
        parts.push(
          `<rect x="${x - 3}" y="${y - style.size}" width="${width}" height="${style.size * 1.3}" fill="${patchFill}"/>`,
        );
        parts.push(textPath(text, x + 1.5, y + 1.5, { ...style, weight: 'bold', fill: '#2b2b2b' }));
        return;
      }
      parts.push(textPath(text, x, y, style));
    },
  };
}

export function guilloche(
  width: number,
  height: number,
  colour: string,
  step: number,
  phase: number,
): string {
  // Fine interfering sine curves, our own pattern, standing in for a security background.
  let d = '';
  for (let row = -height; row < height * 2; row += step) {
    d += `M0 ${row.toFixed(1)}`;
    for (let x = 0; x <= width; x += 12) {
      const y = row + Math.sin((x + phase) / 37) * 9 + Math.sin((x + row) / 91) * 14;
      d += ` L${x} ${y.toFixed(1)}`;
    }
  }
  return `<path d="${d}" stroke="${colour}" stroke-width="0.8" fill="none" opacity="0.55"/>`;
}

export function frame(width: number, height: number, background: string, pattern: string): string {
  return `<rect width="${width}" height="${height}" rx="28" fill="${background}"/>${pattern}`;
}

export const LABEL: TextStyle = { size: 15, fill: '#4a4a4a' };
export const VALUE: TextStyle = { size: 24, fill: '#111111' };

/**
 * `style`, condensed when `text` would run wider than `maxWidth`: a long address is printed in
 * narrower glyphs, as real cards do, instead of running under the portrait.
 */
export function fitted(text: string, style: TextStyle, maxWidth: number): TextStyle {
  const width = measureText(text, style);
  return width > maxWidth ? { ...style, scaleX: maxWidth / width } : style;
}

export function svgDocument(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}

export const CARD_W = 856;
export const CARD_H = 540;

const BAND_COLOURS: Record<string, string> = { gold: '#c9a468', blue: '#8fb6e0', green: '#9dd1a6' };

/** The definition's zones of these fields (each one must be defined). */
function zonesOf<K extends string>(
  zones: Partial<Record<K, Region>>,
  fields: readonly K[],
): Record<K, Region> {
  const out = {} as Record<K, Region>;
  for (const field of fields) {
    const region = zones[field];
    if (!region) throw new Error(`the document definition has no ${field} zone`);
    out[field] = region;
  }
  return out;
}

/** The baseline that centres a line of `size` glyphs in a definition zone (CJK glyphs sit 0.88 above, 0.12 below). */
function baselineIn(region: Region, size: number): number {
  return Math.round(((region[1] + region[3]) / 2 + 0.38 * size) * 10) / 10;
}

/** The class cells of the licence's 種類 grid, in the form's order (two rows). */
const LICENCE_CLASS_CELLS = [
  ['大型', '中型', '準中型', '普通', '大特', '大自二'],
  ['普自二', '小特', '原付', '大二', '中二', '普二'],
];

/** 2028年(令和10年)09月23日まで有効: the band prints the Western year first, then the era's. */
function licenceExpiry(date: string): string {
  const { era, year } = toEra(date);
  const [y, m, d] = date.split('-');
  return `${y}年(${era}${String(year).padStart(2, '0')}年)${m}月${d}日まで有効`;
}

/**
 * The front of the 運転免許証 in the form of 道路交通法施行規則 別記様式第十四: zones, portrait and the
 * vertical 運転免許証 from the definition (src/documents/document-types.ts); the ruled rows, the
 * 免許の条件等 and 優良 boxes, the dates per category and the 種類 grid are drawn where the 警察庁
 * specimen prints them (measured on it, ±6 units, the same measurement as the definition's).
 * Our own background pattern; no seal, no emblem, no 見本 stamp.
 */
function drivingLicenceFront(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const { identity, details } = record;
  const def = DRIVERS_LICENSE;
  const zone = def.front;
  const g = drawing(options, '#f3f6f1');
  // The specimen's rules are dark and thin; on a 640-px capture a dark rule blurs into a grey bar
  // the OCR reads as a glyph (藤原 美咲 0, …日生 |): drawn lighter, at the specimen's positions.
  const rule = '#8f9994';
  g.parts.push(frame(CARD_W, CARD_H, '#f8faf6', guilloche(CARD_W, CARD_H, '#d7e4d6', 26, 0)));
  // The ruled rows: 氏名 / 生年月日 across the top, 住所, 交付 (to the photo), each with its label cell.
  const row = (y0: number, y1: number, x1: number, label: string, split?: number) => {
    g.parts.push(
      `<rect x="30" y="${y0}" width="${x1 - 30}" height="${y1 - y0}" rx="6" fill="none" stroke="${rule}" stroke-width="1.2"/>`,
      `<line x1="92" y1="${y0}" x2="92" y2="${y1}" stroke="${rule}" stroke-width="1.2"/>`,
    );
    if (split)
      g.parts.push(
        `<line x1="${split}" y1="${y0}" x2="${split}" y2="${y1}" stroke="${rule}" stroke-width="1.2"/>`,
      );
    g.text(label, 61, (y0 + y1) / 2 + 6, { ...LABEL, size: 17, anchor: 'middle' });
  };
  const {
    name: nameZone,
    birthDate: birthZone,
    address: addressZone,
    issueDate: issueZone,
    expiryDate: expiryZone,
    documentNumber: numberZone,
    issuer: issuerZone,
  } = zonesOf(zone, ['name', 'birthDate', 'address', 'issueDate', 'expiryDate', 'documentNumber', 'issuer']);
  // The address at issue: a move since is recorded on the back, the front is never reprinted.
  const frontAddress = record.addressAtIssue ?? identity.address;
  row(30, 82, 826, '氏名', birthZone[0] + 4);
  row(110, 154, 826, '住所');
  row(156, 188, def.portrait?.[0] ?? 578, '交付');
  // The name as one published specimen prints it (神奈川　花子): the two names set solid, a
  // full-width space between them, glyphs about 29 of the card's 856 units wide. Other specimens
  // spread it over the row (見　本　　花　子); spaced half-way (山 田　 花 子), the OCR read the
  // gap as 一 on most captures.
  const nameText = `${identity.lastName}　${identity.firstName}`;
  const nameStyle = fitted(nameText, { ...VALUE, size: 30 }, birthZone[0] - nameZone[0] - 50);
  g.text(nameText, nameZone[0] + 22, baselineIn(nameZone, 30), nameStyle, 'name');
  const birth = `${formatEraDate(identity.birthDate)}生`;
  g.text(
    birth,
    birthZone[0] + 18,
    baselineIn(birthZone, 24),
    fitted(birth, { ...VALUE, size: 24 }, birthZone[2] - birthZone[0] - 40),
    'birthDate',
  );
  g.text(
    frontAddress,
    addressZone[0] + 14,
    baselineIn(addressZone, 27),
    fitted(frontAddress, { ...VALUE, size: 27 }, addressZone[2] - addressZone[0] - 40),
    'address',
  );
  g.text(
    `${formatEraDate(record.issueDate, { padded: true })}　${details.referenceNumber ?? ''}`,
    issueZone[0] + 30,
    baselineIn(issueZone, 22),
    { ...VALUE, size: 22 },
    'issueDate',
  );
  // The 有効期限 band, coloured by class (gold 優良, blue 一般, green 新規), printed condensed.
  const band = def.colourBands[0]?.region ?? expiryZone;
  g.parts.push(
    `<rect x="${band[0]}" y="${band[1]}" width="${band[2] - band[0]}" height="${band[3] - band[1]}" fill="${BAND_COLOURS[details.bandColour ?? 'blue'] ?? '#8fb6e0'}"/>`,
  );
  const expiry = licenceExpiry(record.expiryDate);
  g.text(
    expiry,
    band[0] + 8,
    baselineIn(band, 31),
    { ...fitted(expiry, { ...VALUE, size: 31, weight: 'bold' }, band[2] - band[0] - 16) },
    'expiryDate',
  );
  g.text('免許の', 36, 262, { ...LABEL, size: 13 });
  g.text('条件等', 36, 282, { ...LABEL, size: 13 });
  g.text(details.conditions ?? '', 125, 272, { ...VALUE, size: 22 });
  if (details.bandColour === 'gold') {
    g.parts.push(
      `<rect x="40" y="316" width="80" height="40" rx="8" fill="none" stroke="#222" stroke-width="2.5"/>`,
    );
    g.text('優良', 80, 346, { ...VALUE, size: 24, weight: 'bold', anchor: 'middle' });
  }
  // 番号 第 012345678900 号: the digits at a fixed pitch between 第 and 号, as large as the
  // specimen prints them (taller than their pitch, a narrow gap between them).
  const numberBaseline = baselineIn(numberZone, 28);
  g.text('番号', 36, numberBaseline - 2, { ...LABEL, size: 15 });
  g.text('第', numberZone[0] + 8, numberBaseline, { ...VALUE, size: 26 });
  g.text(
    record.documentNumber,
    numberZone[0] + 62,
    numberBaseline,
    { ...VALUE, size: 34, monospace: 23.8 },
    'documentNumber',
  );
  g.text('号', numberZone[2] - 38, numberBaseline, { ...VALUE, size: 26 });
  // The dates each category was first held (二・小・原, 他, 二種), then the 種類 grid.
  const firstHeld = formatEraDate(addYears(identity.birthDate, 19), { padded: true });
  const categories: [string, string][] = [
    ['二・小・原', '――――'],
    [
      '他',
      details.firstLicensedYear
        ? formatEraDate(`${details.firstLicensedYear}${record.issueDate.slice(4)}`, { padded: true })
        : firstHeld,
    ],
    ['二種', '――――'],
  ];
  categories.forEach(([label, date], i) => {
    const y = 414 + i * 31;
    g.parts.push(
      `<rect x="30" y="${y}" width="278" height="31" fill="none" stroke="${rule}" stroke-width="1"/>`,
    );
    g.text(label, 56, y + 20, { ...LABEL, size: 11, anchor: 'middle' });
    g.text(date, 90, y + 24, { ...VALUE, size: 20 });
  });
  const held = new Set((details.classes ?? '').split(' '));
  g.parts.push(
    `<rect x="312" y="414" width="228" height="93" fill="none" stroke="${rule}" stroke-width="1"/>`,
    `<line x1="338" y1="414" x2="338" y2="507" stroke="${rule}"/>`,
  );
  g.text('種', 325, 448, { ...LABEL, size: 15, anchor: 'middle' });
  g.text('類', 325, 484, { ...LABEL, size: 15, anchor: 'middle' });
  LICENCE_CLASS_CELLS.forEach((cells, r) => {
    cells.forEach((cell, c) => {
      const x = 338 + c * 33.7;
      const y = 414 + r * 46.5;
      g.parts.push(
        `<rect x="${x}" y="${y}" width="33.7" height="46.5" fill="${held.has(cell) ? '#ffffff' : '#f1e2e2'}" stroke="${rule}" stroke-width="0.8"/>`,
      );
      g.text(held.has(cell) ? cell : '－', x + 16.8, y + 30, {
        ...VALUE,
        size: cell.length > 2 && held.has(cell) ? 10 : 14,
        anchor: 'middle',
      });
    });
  });
  // 運転免許証, printed vertically beside the photo: one character per fifth of the title's zone.
  const [tx0, ty0, tx1, ty1] = def.titleRegion.region;
  [...def.title].forEach((ch, i) => {
    const cell = (ty1 - ty0) / def.title.length;
    g.text(ch, (tx0 + tx1) / 2 - 4, ty0 + cell * (i + 0.5) + 0.38 * 32, {
      size: 32,
      weight: 'bold',
      fill: '#1f5fa6',
      anchor: 'middle',
    });
  });
  // The issuing 公安委員会 under the photo, the prefecture above 公安委員会.
  const issuerCentre = (issuerZone[0] + issuerZone[2]) / 2;
  const prefecture = record.issuer.replace(/公安委員会$/, '');
  g.text(prefecture, issuerCentre, issuerZone[1] + 26, { size: 20, fill: '#a8322a', anchor: 'middle' });
  g.text('公安委員会', issuerCentre, issuerZone[3] + 2, { size: 20, fill: '#a8322a', anchor: 'middle' });
  const [px0, py0, px1, py1] = def.portrait ?? [580, 152, 818, 452];
  g.parts.push(`<rect x="${px0}" y="${py0}" width="${px1 - px0}" height="${py1 - py0}" fill="#cfdbe6"/>`);
  return {
    width: CARD_W,
    height: CARD_H,
    svg: svgDocument(CARD_W, CARD_H, g.parts.join('')),
    portrait: { x: px0, y: py0, width: px1 - px0, height: py1 - py0 },
  };
}

/** The 備考 rows a licence's changes are printed in (baselines; the first row holds the 記載事項変更欄 label). */
const LICENCE_REMARK_BASELINES = [180, 228, 276] as const;

function drivingLicenceBack(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const g = drawing(options, '#f3f3ee');
  g.parts.push(frame(CARD_W, CARD_H, '#f4f5f0', guilloche(CARD_W, CARD_H, '#d3dccf', 30, 40)));
  g.text('備考', 44, 70, { ...LABEL, size: 20 });
  for (let i = 0; i < 5; i++)
    g.parts.push(`<line x1="40" y1="${100 + i * 48}" x2="816" y2="${100 + i * 48}" stroke="#9aa59a"/>`);
  g.text('記載事項変更欄（住所等）', 44, 130, { ...LABEL, size: 15 });
  (record.addressChanges ?? []).forEach((change, i) => {
    const row = { ...VALUE, size: 20 };
    g.text(
      change.printed,
      52,
      LICENCE_REMARK_BASELINES[i] ?? 0,
      fitted(change.printed, row, 760),
      'addressBack',
    );
  });
  g.text('臓器提供意思表示欄', 44, 368, { ...LABEL, size: 18 });
  g.parts.push(`<rect x="40" y="382" width="776" height="120" fill="none" stroke="#9aa59a"/>`);
  g.text('1. 2. 3. いずれかの番号を○で囲んでください。', 56, 416, { ...LABEL, size: 16 });
  g.text('《1 と 2 を選んだ方で、提供したくない臓器があれば × をつけてください。》', 56, 446, {
    ...LABEL,
    size: 14,
  });
  g.text('署名年月日：　　　年　　月　　日　本人署名：', 56, 484, { ...LABEL, size: 16 });
  return { width: CARD_W, height: CARD_H, svg: svgDocument(CARD_W, CARD_H, g.parts.join('')) };
}

/**
 * The front of the 個人番号カード as the 総務省 / 地方公共団体情報システム機構 publish it: zones, the title
 * box and the portrait at the left from the definition (src/documents/document-types.ts); the address
 * panel, the 電子証明書の有効期限 box, the remarks panel, the organ donation lines and the card's
 * serial where the official specimen illustration prints them (measured on it, ±8 units).
 * Our own background pattern; no mascot, no emblem.
 */
function myNumberFront(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const { identity, details } = record;
  const def = MY_NUMBER_CARD;
  const zone = def.front;
  const g = drawing(options, '#f9ecee');
  g.parts.push(frame(CARD_W, CARD_H, '#fbf0f1', guilloche(CARD_W, CARD_H, '#e3ecc9', 24, 15)));
  const {
    name: nameZone,
    address: addressZone,
    sex: sexZone,
    birthDate: birthZone,
    expiryDate: expiryZone,
    issuer: issuerZone,
  } = zonesOf(zone, ['name', 'address', 'sex', 'birthDate', 'expiryDate', 'issuer']);
  g.text('氏名', 26, baselineIn(nameZone, 18) + 4, { ...LABEL, size: 18, weight: 'bold', fill: '#333' });
  const nameText = `${identity.lastName}　${identity.firstName}`;
  g.text(
    nameText,
    nameZone[0] + 14,
    baselineIn(nameZone, 32),
    fitted(nameText, { ...VALUE, size: 32, letterSpacing: 4 }, nameZone[2] - nameZone[0] - 30),
    'name',
  );
  g.text('住所', 26, baselineIn(addressZone, 18), { ...LABEL, size: 18, weight: 'bold', fill: '#333' });
  g.parts.push(
    `<rect x="${addressZone[0]}" y="${addressZone[1] + 2}" width="${addressZone[2] - addressZone[0] - 20}" height="${addressZone[3] - addressZone[1] - 4}" fill="#f5dde1"/>`,
  );
  g.text(
    identity.address,
    addressZone[0] + 12,
    baselineIn(addressZone, 27),
    fitted(identity.address, { ...VALUE, size: 27 }, addressZone[2] - addressZone[0] - 50),
    'address',
  );
  // The card's name, in a white box top right.
  const [tx0, ty0, tx1, ty1] = def.titleRegion.region;
  g.parts.push(
    `<rect x="${tx0 + 10}" y="${ty0 + 4}" width="${tx1 - tx0 - 18}" height="${ty1 - ty0 - 12}" rx="12" fill="#ffffff" stroke="#c9c9c9"/>`,
  );
  // The specimen prints the words in the box's lower half (its mascot, not drawn here, above them).
  g.text('個人番号', (tx0 + tx1) / 2, ty0 + 76, { size: 21, weight: 'bold', fill: '#333', anchor: 'middle' });
  g.text('カード', (tx0 + tx1) / 2, ty0 + 99, { size: 21, weight: 'bold', fill: '#333', anchor: 'middle' });
  g.text('性別', sexZone[0] + 12, baselineIn(sexZone, 17), {
    ...LABEL,
    size: 17,
    weight: 'bold',
    fill: '#333',
  });
  g.text(identity.sex === 'M' ? '男' : '女', sexZone[0] + 80, baselineIn(sexZone, 25), {
    ...VALUE,
    size: 25,
  });
  const birth = `${formatEraDate(identity.birthDate)}生`;
  g.text(
    birth,
    birthZone[0] + 12,
    baselineIn(birthZone, 24),
    fitted(birth, { ...VALUE, size: 24 }, birthZone[2] - birthZone[0] - 24),
    'birthDate',
  );
  const expiry = `${formatWesternDate(record.expiryDate)}まで有効`;
  g.text(
    expiry,
    expiryZone[0] + 14,
    baselineIn(expiryZone, 24),
    fitted(expiry, { ...VALUE, size: 24 }, expiryZone[2] - expiryZone[0] - 30),
    'expiryDate',
  );
  g.text(
    record.issuer,
    issuerZone[2] - 30,
    baselineIn(issuerZone, 21),
    fitted(record.issuer, { ...VALUE, size: 21, anchor: 'end' }, issuerZone[2] - issuerZone[0] - 40),
  );
  // The electronic certificate's expiry: a dark label box, the date in a white one. The specimen
  // starts the dark box some 20 units further left, inside the issuer's zone plus its tolerance;
  // it starts after them here, so the issuer's line is read without its edge.
  const certificate = issuerZone[2] + def.tolerance;
  g.parts.push(
    `<rect x="${certificate}" y="222" width="80" height="40" fill="#333"/>`,
    `<rect x="${certificate + 82}" y="222" width="${828 - certificate - 82}" height="40" fill="#ffffff" stroke="#999"/>`,
  );
  g.text('電子証明書', certificate + 40, 239, { size: 12, fill: '#fff', anchor: 'middle' });
  g.text('の有効期限', certificate + 40, 256, { size: 12, fill: '#fff', anchor: 'middle' });
  g.text(formatWesternDate(details.certificateExpiry ?? record.expiryDate), certificate + 92, 251, {
    ...fitted('2029年07月11日', { ...VALUE, size: 21 }, 828 - certificate - 100),
  });
  // The remarks panel (追記欄), ruled, and the organ donation lines under it.
  let hatch = '';
  for (let y = 280; y < 430; y += 8) hatch += `M300 ${y} H828 `;
  g.parts.push(
    `<rect x="300" y="273" width="528" height="158" fill="#eeeef3" stroke="#8c8ca0"/>`,
    `<path d="${hatch}" stroke="#d2d2de" stroke-width="1"/>`,
    `<path d="M300 313 H828 M300 353 H828 M300 393 H828" stroke="#8c8ca0" stroke-width="1"/>`,
  );
  g.text('●臓器提供意思【1 脳死後及び心停止した死後／2 心停止した死後のみ／3 提供せず】', 314, 452, {
    ...LABEL,
    size: 12.5,
  });
  g.text('《1・2で提供したくない臓器があれば×》【心臓・肺・肝臓・腎臓・膵臓・小腸・眼球】', 314, 470, {
    ...LABEL,
    size: 12.5,
  });
  g.text('署名年月日　　　年　　月　　日　　署名', 314, 490, { ...LABEL, size: 12.5 });
  g.text('特記欄', 314, 508, { ...LABEL, size: 12.5 });
  g.text(details.cardSerial ?? '', 36, 512, { ...VALUE, size: 13 });
  g.text(details.securityCode ?? '', 200, 512, { ...VALUE, size: 17, weight: 'bold', letterSpacing: 2 });
  const [px0, py0, px1, py1] = def.portrait ?? [30, 184, 244, 456];
  g.parts.push(`<rect x="${px0}" y="${py0}" width="${px1 - px0}" height="${py1 - py0}" fill="#a8c8e8"/>`);
  return {
    width: CARD_W,
    height: CARD_H,
    svg: svgDocument(CARD_W, CARD_H, g.parts.join('')),
    portrait: { x: px0, y: py0, width: px1 - px0, height: py1 - py0 },
  };
}

function myNumberBack(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const { identity } = record;
  const g = drawing(options, '#f6f6f6');
  g.parts.push(frame(CARD_W, CARD_H, '#f7f7f5', guilloche(CARD_W, CARD_H, '#d8dde6', 34, 70)));
  g.text('個人番号', 44, 80, { ...LABEL, size: 18 });
  const number = record.myNumber ?? '';
  const grouped = `${number.slice(0, 4)} ${number.slice(4, 8)} ${number.slice(8)}`;
  g.text(grouped, 180, 86, { ...VALUE, size: 44, weight: 'bold', letterSpacing: 4 }, 'myNumber');
  g.text('氏名', 44, 170, LABEL);
  g.text(`${identity.lastName}　${identity.firstName}`, 100, 172, { ...VALUE, size: 26 }, 'name');
  g.text('生年月日', 44, 228, LABEL);
  g.text(`${formatEraDate(identity.birthDate)}生`, 120, 230, { ...VALUE, size: 22 }, 'birthDateBack');
  // A chip contact plate and a block pattern of our own (not a real code).
  g.parts.push(
    `<rect x="80" y="300" width="120" height="96" rx="12" fill="#c9b26b" stroke="#8d7a3c" stroke-width="2"/>`,
  );
  g.parts.push(
    `<path d="M80 348 H200 M140 300 V396 M110 300 V348 M170 348 V396" stroke="#8d7a3c" stroke-width="2"/>`,
  );
  let blocks = '';
  for (let i = 0; i < 12; i++) {
    for (let j = 0; j < 12; j++) {
      const digit = Number(number[(i + j) % 12] ?? 0);
      if (((digit + 1) * (i * 13 + j * 7 + 3)) % 5 < 2)
        blocks += `<rect x="${620 + j * 14}" y="${300 + i * 14}" width="14" height="14"/>`;
    }
  }
  g.parts.push(`<g fill="#222">${blocks}</g>`);
  g.text('この面は個人番号の確認時のみ使用してください', 44, 500, { ...LABEL, size: 14 });
  return { width: CARD_W, height: CARD_H, svg: svgDocument(CARD_W, CARD_H, g.parts.join('')) };
}

function residenceFront(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const { identity, details } = record;
  const g = drawing(options, '#f5f1f4');
  g.parts.push(frame(CARD_W, CARD_H, '#f6f0f3', guilloche(CARD_W, CARD_H, '#e0c3d2', 24, 25)));
  g.text('在留カード', 40, 56, { ...VALUE, size: 26, weight: 'bold', fill: '#7a3d5c', letterSpacing: 3 });
  g.text('番号', 560, 54, LABEL);
  g.text(
    record.documentNumber,
    604,
    56,
    { ...VALUE, size: 26, weight: 'bold', letterSpacing: 1 },
    'documentNumber',
  );
  g.text('氏名', 40, 104, LABEL);
  g.text(
    `${identity.lastName} ${identity.firstName}`,
    90,
    106,
    { ...VALUE, size: 30, weight: 'bold' },
    'name',
  );
  g.text('生年月日', 40, 150, LABEL);
  g.text(formatWesternDate(identity.birthDate), 112, 152, { ...VALUE, size: 22 }, 'birthDate');
  g.text('性別', 330, 150, LABEL);
  g.text(identity.sex === 'M' ? '男 M.' : '女 F.', 372, 152, VALUE);
  g.text('国籍・地域', 440, 150, LABEL);
  g.text(identity.nationality, 520, 152, VALUE);
  g.text('住居地', 40, 196, LABEL);
  g.text(identity.address, 100, 198, fitted(identity.address, { ...VALUE, size: 19 }, 515), 'address');
  g.text('在留資格', 40, 244, LABEL);
  g.text(details.status ?? '', 112, 248, { ...VALUE, size: 24, weight: 'bold' });
  g.text('就労制限の有無', 40, 290, LABEL);
  g.text(details.workPermission ?? '', 150, 292, { ...VALUE, size: 21 });
  g.text('在留期間(満了日)', 40, 336, LABEL);
  g.text(
    `${details.periodYears}年（${formatWesternDate(record.expiryDate)}）`,
    170,
    338,
    { ...VALUE, size: 22 },
    'expiryDate',
  );
  g.text('許可の種類', 40, 380, LABEL);
  g.text(details.permitType ?? '', 124, 382, { ...VALUE, size: 19 });
  g.text(`許可年月日 ${formatWesternDate(details.permitDate ?? record.issueDate)}`, 40, 420, {
    ...VALUE,
    size: 17,
  });
  g.text(`交付年月日 ${formatWesternDate(record.issueDate)}`, 320, 420, { ...VALUE, size: 17 }, 'issueDate');
  g.parts.push(`<rect x="40" y="440" width="560" height="40" fill="#ecdde5"/>`);
  g.text(
    `このカードは${formatWesternDate(record.expiryDate)}まで有効です。`,
    52,
    468,
    { ...VALUE, size: 20, weight: 'bold' },
    'expiryDate',
  );
  g.text(record.issuer, 840, 510, { ...LABEL, size: 16, anchor: 'end' });
  g.parts.push(`<rect x="630" y="170" width="186" height="240" fill="#e8dde3"/>`);
  return {
    width: CARD_W,
    height: CARD_H,
    svg: svgDocument(CARD_W, CARD_H, g.parts.join('')),
    portrait: { x: 630, y: 170, width: 186, height: 240 },
  };
}

function residenceBack(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const g = drawing(options, '#f6f6f6');
  g.parts.push(frame(CARD_W, CARD_H, '#f7f4f6', guilloche(CARD_W, CARD_H, '#e6d5de', 34, 90)));
  g.text('住居地記載欄', 44, 60, { ...LABEL, size: 18 });
  g.parts.push(`<rect x="40" y="74" width="776" height="150" fill="none" stroke="#a58a98"/>`);
  g.parts.push(
    `<line x1="230" y1="74" x2="230" y2="224" stroke="#a58a98"/><line x1="40" y1="110" x2="816" y2="110" stroke="#a58a98"/>`,
  );
  g.text('届出年月日', 80, 100, { ...LABEL, size: 15 });
  g.text('住居地', 440, 100, { ...LABEL, size: 15 });
  g.text(formatWesternDate(record.issueDate), 52, 146, { ...VALUE, size: 18 });
  g.text(record.identity.address, 244, 146, { ...VALUE, size: 18 }, 'addressBack');
  g.text('資格外活動許可欄', 44, 270, { ...LABEL, size: 18 });
  g.parts.push(`<rect x="40" y="284" width="776" height="80" fill="none" stroke="#a58a98"/>`);
  g.text('在留期間更新等許可申請欄', 44, 410, { ...LABEL, size: 18 });
  g.parts.push(`<rect x="40" y="424" width="776" height="80" fill="none" stroke="#a58a98"/>`);
  return { width: CARD_W, height: CARD_H, svg: svgDocument(CARD_W, CARD_H, g.parts.join('')) };
}

const PASSPORT_W = 1000;
const PASSPORT_H = 704;

function passportDataPage(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const { identity } = record;
  const g = drawing(options, '#f1efe6');
  g.parts.push(`<rect width="${PASSPORT_W}" height="${PASSPORT_H}" fill="#f2efe4"/>`);
  g.parts.push(guilloche(PASSPORT_W, 540, '#d7cfb4', 20, 55));
  g.parts.push(`<rect x="0" y="540" width="${PASSPORT_W}" height="164" fill="#fbfaf6"/>`);
  const label = (ja: string, en: string, x: number, y: number) => {
    g.text(`${ja} / ${en}`, x, y, { ...LABEL, size: 14 });
  };
  const value = (text: string, x: number, y: number, field?: string) =>
    g.text(text, x, y + 30, { ...VALUE, size: 26 }, field);
  g.text('日本国 旅券  PASSPORT', 330, 50, {
    ...VALUE,
    size: 26,
    weight: 'bold',
    fill: '#5a4a2a',
    letterSpacing: 2,
  });
  label('型', 'Type', 330, 90);
  value('P', 330, 90);
  label('発行国', 'Issuing country', 450, 90);
  value('JPN', 450, 90);
  label('旅券番号', 'Passport No.', 680, 90);
  value(record.documentNumber, 680, 90, 'documentNumber');
  label('姓', 'Surname', 330, 160);
  value(identity.lastNameLatin, 330, 160, 'name');
  label('名', 'Given name', 330, 230);
  value(identity.firstNameLatin, 330, 230, 'name');
  label('国籍', 'Nationality', 330, 300);
  value('JAPAN', 330, 300);
  label('生年月日', 'Date of birth', 600, 300);
  value(formatPassportDate(identity.birthDate), 600, 300, 'birthDate');
  label('性別', 'Sex', 330, 370);
  value(identity.sex, 330, 370);
  label('本籍', 'Registered Domicile', 450, 370);
  value(identity.prefectureLatin, 450, 370, 'address');
  label('発行年月日', 'Date of issue', 330, 440);
  value(formatPassportDate(record.issueDate), 330, 440, 'issueDate');
  label('有効期間満了日', 'Date of expiry', 640, 440);
  value(formatPassportDate(record.expiryDate), 640, 440, 'expiryDate');
  label('発行官庁', 'Authority', 330, 505);
  g.text(record.issuer, 500, 510, { ...VALUE, size: 18 });
  const [line1, line2] = record.mrz ?? ['', ''];
  const mrzStyle: TextStyle = { size: 30, weight: 'regular', monospace: 21.5, fill: '#111' };
  g.text(line1, 27, 610, mrzStyle, 'mrz');
  g.text(line2, 27, 662, mrzStyle, 'mrz');
  g.parts.push(`<rect x="40" y="110" width="250" height="320" fill="#e3decf"/>`);
  g.text(`${identity.lastName}${identity.firstName}`, 60, 490, { ...VALUE, size: 26, fill: '#223' });
  return {
    width: PASSPORT_W,
    height: PASSPORT_H,
    svg: svgDocument(PASSPORT_W, PASSPORT_H, g.parts.join('')),
    portrait: { x: 40, y: 110, width: 250, height: 320 },
  };
}

/** The layout of one side of a document; `null` when the document has no such side. */
export function layoutDocumentSide(
  record: DocumentRecord,
  side: 'front' | 'back',
  options: LayoutOptions = {},
): SideLayout | null {
  switch (record.documentType) {
    case 'drivers_license':
      return side === 'front' ? drivingLicenceFront(record, options) : drivingLicenceBack(record, options);
    case 'my_number_card':
      return side === 'front' ? myNumberFront(record, options) : myNumberBack(record, options);
    case 'residence_card':
      return side === 'front' ? residenceFront(record, options) : residenceBack(record, options);
    case 'passport':
      return side === 'front' ? passportDataPage(record, options) : null;
  }
}
