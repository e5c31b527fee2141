// Neutral layouts of our own that carry the same information as the real documents, in the
// forms each prints its dates (issue 4 item 3). No official emblem, seal or copied design.
import type { DocumentRecord } from './document-record.ts';
import { formatEraDate, formatPassportDate, formatWesternDate } from './japanese-date.ts';
import { measureText, type TextStyle, textPath } from './text-paths.ts';

export type Box = { x: number; y: number; width: number; height: number };

export type SideLayout = {
  width: number;
  height: number;
  /** SVG drawn over the background; the portrait is composited into `portrait`. */
  svg: string;
  portrait?: Box;
};

/** Which printed item a text_edit attack altered, drawn with a visible but subtle patch. */
export type LayoutOptions = { editedField?: string };

type Draw = {
  parts: string[];
  text(text: string, x: number, y: number, style: TextStyle, field?: string): void;
};

function drawing(options: LayoutOptions, patchFill: string): Draw {
  const parts: string[] = [];
  return {
    parts,
    text(text, x, y, style, field) {
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

function guilloche(width: number, height: number, colour: string, step: number, phase: number): string {
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

function frame(width: number, height: number, background: string, pattern: string): string {
  return `<rect width="${width}" height="${height}" rx="28" fill="${background}"/>${pattern}`;
}

const LABEL: TextStyle = { size: 15, fill: '#4a4a4a' };
const VALUE: TextStyle = { size: 24, fill: '#111111' };

/**
 * `style`, condensed when `text` would run wider than `maxWidth`: a long address is printed in
 * narrower glyphs, as real cards do, instead of running under the portrait.
 */
function fitted(text: string, style: TextStyle, maxWidth: number): TextStyle {
  const width = measureText(text, style);
  return width > maxWidth ? { ...style, scaleX: maxWidth / width } : style;
}

function svgDocument(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}

const CARD_W = 856;
const CARD_H = 540;

const BAND_COLOURS: Record<string, string> = { gold: '#d8b64a', blue: '#7fa8d8', green: '#8cc79a' };

function drivingLicenceFront(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const { identity, details } = record;
  const g = drawing(options, '#eef3ea');
  g.parts.push(frame(CARD_W, CARD_H, '#eef4ec', guilloche(CARD_W, CARD_H, '#b9d3bd', 22, 0)));
  g.parts.push(
    `<rect x="24" y="22" width="808" height="496" rx="14" fill="none" stroke="#6f9a78" stroke-width="2"/>`,
  );
  g.text('氏名', 44, 70, LABEL);
  g.text(
    `${identity.lastName}　${identity.firstName}`,
    100,
    72,
    { ...VALUE, size: 30, weight: 'bold' },
    'name',
  );
  g.text(`${formatEraDate(identity.birthDate)}生`, 380, 72, VALUE, 'birthDate');
  g.parts.push(`<line x1="40" y1="88" x2="816" y2="88" stroke="#6f9a78" stroke-width="1.2"/>`);
  g.text('住所', 44, 124, LABEL);
  g.text(identity.address, 100, 124, { ...VALUE, size: 22 }, 'address');
  g.parts.push(`<line x1="40" y1="142" x2="816" y2="142" stroke="#6f9a78" stroke-width="1.2"/>`);
  g.text('交付', 44, 176, LABEL);
  g.text(
    `${formatEraDate(record.issueDate, { padded: true })}  ${details.referenceNumber ?? ''}`,
    100,
    176,
    { ...VALUE, size: 21 },
    'issueDate',
  );
  const band = BAND_COLOURS[details.bandColour ?? 'blue'] ?? '#7fa8d8';
  g.parts.push(`<rect x="40" y="192" width="560" height="46" fill="${band}"/>`);
  const expiryYear = record.expiryDate.slice(0, 4);
  const era = formatEraDate(record.expiryDate, { padded: true });
  g.text(
    `${era.replace(/年/, `年(${expiryYear})`)}まで有効`,
    56,
    225,
    { ...VALUE, size: 25, weight: 'bold' },
    'expiryDate',
  );
  g.text('免許の', 44, 270, LABEL);
  g.text('条件等', 44, 290, LABEL);
  g.text(details.conditions ?? '', 110, 284, VALUE);
  g.parts.push(
    `<rect x="40" y="306" width="560" height="44" fill="none" stroke="#6f9a78" stroke-width="1.2"/>`,
  );
  g.text('番号', 50, 337, LABEL);
  g.text(
    `第 ${record.documentNumber} 号`,
    110,
    340,
    { ...VALUE, size: 28, weight: 'bold', letterSpacing: 1 },
    'documentNumber',
  );
  // Licence classes held, as a small grid.
  const classes = (details.classes ?? '').split(' ');
  const cells = ['二・小・原', '他', '二種', '種類'];
  cells.forEach((c, i) => {
    g.parts.push(
      `<rect x="${40 + i * 100}" y="370" width="100" height="34" fill="#ffffff" fill-opacity="0.5" stroke="#6f9a78"/>`,
    );
    g.text(c, 90 + i * 100, 393, { ...LABEL, size: 14, anchor: 'middle' });
  });
  g.parts.push(
    `<rect x="40" y="404" width="400" height="40" fill="#ffffff" fill-opacity="0.5" stroke="#6f9a78"/>`,
  );
  g.text(classes.join('　'), 56, 432, { ...VALUE, size: 20 });
  g.text('運転免許証', 470, 432, { ...VALUE, size: 34, weight: 'bold', letterSpacing: 4 });
  g.text(record.issuer, 640, 500, { ...VALUE, size: 20, anchor: 'middle' });
  g.parts.push(`<rect x="620" y="152" width="196" height="250" fill="#dde6dd"/>`);
  return {
    width: CARD_W,
    height: CARD_H,
    svg: svgDocument(CARD_W, CARD_H, g.parts.join('')),
    portrait: { x: 620, y: 152, width: 196, height: 250 },
  };
}

function drivingLicenceBack(_record: DocumentRecord, options: LayoutOptions): SideLayout {
  const g = drawing(options, '#f3f3ee');
  g.parts.push(frame(CARD_W, CARD_H, '#f4f5f0', guilloche(CARD_W, CARD_H, '#d3dccf', 30, 40)));
  g.text('備考', 44, 70, { ...LABEL, size: 20 });
  for (let i = 0; i < 5; i++)
    g.parts.push(`<line x1="40" y1="${100 + i * 48}" x2="816" y2="${100 + i * 48}" stroke="#9aa59a"/>`);
  g.text('記載事項変更欄（住所等）', 44, 130, { ...LABEL, size: 15 });
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

function myNumberFront(record: DocumentRecord, options: LayoutOptions): SideLayout {
  const { identity, details } = record;
  const g = drawing(options, '#f2f4f8');
  g.parts.push(frame(CARD_W, CARD_H, '#f3f5f9', guilloche(CARD_W, CARD_H, '#c9d5ea', 26, 15)));
  g.text('個人番号カード', 44, 62, { ...VALUE, size: 24, weight: 'bold', fill: '#3b5b8c', letterSpacing: 2 });
  g.text('氏名', 44, 112, LABEL);
  g.text(
    `${identity.lastName}　${identity.firstName}`,
    100,
    116,
    { ...VALUE, size: 32, weight: 'bold' },
    'name',
  );
  g.text('住所', 44, 170, LABEL);
  g.text(identity.address, 100, 172, fitted(identity.address, { ...VALUE, size: 21 }, 505), 'address');
  g.text('生年月日', 44, 250, LABEL);
  g.text(`${formatEraDate(identity.birthDate)}生`, 120, 252, { ...VALUE, size: 22 }, 'birthDate');
  g.text('性別', 420, 250, LABEL);
  g.text(identity.sex === 'M' ? '男' : '女', 462, 252, VALUE);
  g.text('電子証明書の有効期限', 44, 330, { ...LABEL, size: 14 });
  g.text(formatWesternDate(details.certificateExpiry ?? record.expiryDate), 44, 356, { ...VALUE, size: 20 });
  g.text('セキュリティコード', 320, 330, { ...LABEL, size: 14 });
  g.text(details.securityCode ?? '', 320, 356, { ...VALUE, size: 20, letterSpacing: 3 });
  g.parts.push(`<rect x="40" y="398" width="540" height="50" rx="6" fill="#dfe7f3"/>`);
  g.text(
    `${formatWesternDate(record.expiryDate)}まで有効`,
    56,
    432,
    { ...VALUE, size: 24, weight: 'bold' },
    'expiryDate',
  );
  g.text(record.issuer, 56, 494, { ...VALUE, size: 18 });
  g.parts.push(`<rect x="620" y="110" width="196" height="250" fill="#dfe4ec"/>`);
  return {
    width: CARD_W,
    height: CARD_H,
    svg: svgDocument(CARD_W, CARD_H, g.parts.join('')),
    portrait: { x: 620, y: 110, width: 196, height: 250 },
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
