// Step 6 of the reading, when a back is given: the My Number read there, the name and birth date
// the back prints again against the front's, a residence card's address as its back records it,
// a licence's last change of address in its 備考 (licence-remarks.ts).
import {
  cleanAddress,
  isPlausibleAddress,
  isPlausibleBirthDate,
  isPlausibleKanjiName,
  isValidMyNumber,
  readDigits,
  readPrintedDate,
  splitNameLine,
  startsWithPrefecture,
} from './correct-fields.ts';
import { BACK_FIELDS, CARD_LAYOUT, type Region, toPixels } from './document-regions.ts';
import type { GreyImage } from './find-document.ts';
import type { FrontReading } from './interpret-front-fields.ts';
import { addressOfRemarks } from './licence-remarks.ts';
import { type OcrEngine, PAGE_SEGMENTATION } from './ocr-engine.ts';
import { field, type OcrExtras, type OcrField } from './ocr-result.ts';
import { lap, type OcrRun, warpTo } from './ocr-run.ts';
import { cutGrey } from './prepare-crop.ts';
import { BACK_FIELD_READ_BUDGET, withOwnBudget } from './read-budget.ts';
import { type FrontPage, readField } from './read-front-fields.ts';
import { DIGITS, type Recognised, readRegion } from './read-region.ts';

/**
 * Confidence both readings need before a disagreement counts (front and back; the address and
 * the issuer): below it a value may be a misread. Dates need more: a dropped digit keeps a
 * plausible date (平成11年 read 平成1年 at 0.84 on a genuine card's back), while a name is only
 * compared by whole last names.
 */
export const CROSS_CHECK_CONFIDENCE = { name: 0.85, birthDate: 0.9, issuer: 0.85 } as const;

/**
 * The fields whose front and back readings disagree in a way a misread does not explain: both
 * read with confidence, birth dates different, last names without a character in common (a
 * misread changes a glyph or two; a re-typed name is another name). First names are left out: the
 * back's smaller print misreads them more often (悠斗 → 悠半).
 */
export function backDisagreements(
  front: OcrExtras['fields'],
  back: NonNullable<OcrExtras['back']>,
): ('name' | 'birthDate')[] {
  const sure = (name: 'name' | 'birthDate', f: OcrField | undefined): f is OcrField & { value: string } =>
    f?.value !== undefined && f.confidence >= CROSS_CHECK_CONFIDENCE[name];
  const out: ('name' | 'birthDate')[] = [];
  if (sure('name', front.name) && sure('name', back.name)) {
    const lastName = (f: { value: string }) => [...(f.value.split(' ')[0] ?? '')];
    const backLast = new Set(lastName(back.name));
    if (!lastName(front.name).some((c) => backLast.has(c))) out.push('name');
  }
  if (
    sure('birthDate', front.birthDate) &&
    sure('birthDate', back.birthDate) &&
    front.birthDate.value !== back.birthDate.value
  )
    out.push('birthDate');
  return out;
}

export async function readBackSide(run: OcrRun, frontPage: FrontPage, reading: FrontReading): Promise<void> {
  const { reference, input } = run;
  const { fields, extras } = reading;
  const { accept } = frontPage;
  const backRegions = BACK_FIELDS[frontPage.type];
  if (!input.back || !backRegions) return;
  const t = performance.now();
  // Each of the back's fields, read side by side, has a budget of its own (read-budget.ts).
  const own = () => withOwnBudget(run.cached, BACK_FIELD_READ_BUDGET);
  const back = await run.settings.geometry.locate(input.back);
  if (back) {
    const backCard = await warpTo(run, back.grey, back.outline.corners, CARD_LAYOUT);
    const readBack = (
      engine: OcrEngine,
      region: Region | undefined,
      opts: Parameters<typeof readRegion>[4],
    ) => (region ? readRegion(engine, backCard, region, CARD_LAYOUT, opts) : undefined);
    const [numberBack, nameBack, birthBack, addressBack, remarksBack] = await Promise.all([
      readBack(own().eng, backRegions.myNumber, {
        whitelist: DIGITS,
        accept: (t) => isValidMyNumber(readDigits(t, 12) ?? ''),
        // Printed twice as tall as the other lines (about 66 px here), where the model reads
        // digits worse: my_number_card-genuine-9 of the accuracy corpus read …7350 as …7338
        // at 1×, nothing at 1.4×, …7358 at 0.75×, right at 0.5×. A printed wrong digit read
        // at 0.5× too still reads alike (24 of the corpus's 25 bad_check_digit My Number cards;
        // the 25th, a poor capture, reads nothing at 1× already).
        rereadAt: [1.4, 0.75, 0.5],
      }),
      readBack(own().jpn, backRegions.name, { accept: accept.name }),
      readBack(own().jpn, backRegions.birthDate, { accept: accept.birthDate }),
      readBack(own().jpn, backRegions.address, { accept: (t) => isPlausibleAddress(cleanAddress(t)) }),
      backRegions.remarks ? readRemarks(own().jpn, backCard, backRegions.remarks) : undefined,
    ]);
    if (numberBack) {
      const myNumber = readDigits(numberBack.text, 12);
      const valid = myNumber !== undefined && isValidMyNumber(myNumber);
      fields.myNumber = field(myNumber, numberBack, valid ? 1 : 0.4);
      extras.myNumber = myNumber;
      // Twelve digits not read is no check-digit verdict: nothing was checked. Nor are twelve
      // digits that read otherwise at another scale: a misread (three genuine cards of the
      // accuracy corpus), where a printed wrong digit reads the same at every scale (its 11
      // bad_check_digit My Number cards).
      const stable =
        !numberBack.budgetSpent && (numberBack.rereads ?? []).every((t) => readDigits(t, 12) === myNumber);
      if (myNumber !== undefined && (valid || stable)) extras.myNumberCheckDigitValid = valid;
      reading.documentNumber = myNumber;
      fields.documentNumber = fields.myNumber;
    }
    if (nameBack && birthBack) {
      // The My Number card's back prints the name and birth date again: a front value
      // re-typed after issue disagrees with it, and two reads that agree confirm each other.
      const backName = splitNameLine(
        nameBack.words.map((w) => ({ text: w.text, x0: w.bbox.x0, x1: w.bbox.x1 })),
        'kanji',
      );
      const backBirth = readPrintedDate(birthBack.text, reference);
      const frontBirth = fields.birthDate.value;
      if (frontBirth && backBirth && frontBirth !== backBirth) {
        // Before a disagreement counts, the front is read again at other scales: the jpn
        // model merges two like glyphs at one scale now and then (7月11日 read 7月1日, sure
        // of it); two readings that agree with each other and with the back settle it.
        const date = (r: Recognised) => readPrintedDate(r.text, reference);
        const again = await readField(run, frontPage, 'birthDate', {
          confirm: { below: Number.POSITIVE_INFINITY, value: date },
        });
        if (again?.confirmation && date(again) === backBirth) fields.birthDate = field(backBirth, again, 1);
      }
      extras.back = {
        name: field(
          backName ? `${backName.lastName} ${backName.firstName}` : undefined,
          nameBack,
          backName && isPlausibleKanjiName(backName) ? 1 : 0.5,
        ),
        birthDate: field(backBirth, birthBack, isPlausibleBirthDate(backBirth, reference) ? 1 : 0.3),
      };
      extras.backDisagrees = backDisagreements(fields, extras.back);
      for (const name of ['name', 'birthDate'] as const) {
        const front = fields[name];
        const again = extras.back[name];
        if (front?.value !== undefined && front.value === again?.value)
          front.confidence = Math.max(front.confidence, again.confidence);
      }
    }
    if (addressBack) {
      const backAddress = cleanAddress(addressBack.text);
      // A residence card's back records the address (a move adds an entry there): read as a
      // plausible address it is the one to report, printed whole where the front's line is
      // cut by the portrait. A front re-typed to another address then disagrees with it.
      if (
        isPlausibleAddress(backAddress) ||
        (startsWithPrefecture(backAddress) && backAddress.length >= (fields.address.value?.length ?? 0))
      )
        fields.address = field(backAddress, addressBack, 1);
    }
    const moved = remarksBack && addressOfRemarks(remarksBack.text);
    if (remarksBack && moved) {
      fields.address = field(moved, remarksBack, 1);
      extras.addressFromRemarks = true;
    }
  }
  lap(run, 'back', t);
}

/**
 * The share of print in the 備考 block under which it holds no row: tuning seed 7's 80 licences
 * (bench:ocr-accuracy --seed 7) gave at most 0.0008 on blank clean and typical backs (0.15 on a
 * poor one: noise, read for nothing) and at least 0.0205 where a move is printed.
 */
const REMARKS_INK = 0.005;

/**
 * The licence back's 備考 read as a block when it holds print: once, and at other scales only
 * when it names 住所 or 公委 without a whole address read.
 */
async function readRemarks(
  engine: OcrEngine & { readonly spare?: boolean },
  backCard: GreyImage,
  region: Region,
) {
  const read = (rereadAt?: readonly number[]) =>
    readRegion(engine, backCard, region, CARD_LAYOUT, {
      psm: PAGE_SEGMENTATION.singleBlock,
      eraseRules: true,
      accept: (t) => addressOfRemarks(t) !== undefined,
      ...(rereadAt ? { rereadAt } : {}),
    });
  // A blank 備考 (most licences) is not read at all: a block read costs ~0.6 s of CPU.
  if (inkShare(backCard, region) < REMARKS_INK) return undefined;
  const first = await read([]);
  return addressOfRemarks(first.text) !== undefined || !/住所|公委/u.test(first.text) ? first : read();
}

/**
 * The share of a region's pixels dark as print: under three quarters of the region's median
 * brightness (the median is the card's paper and its light pattern).
 */
function inkShare(image: GreyImage, region: Region): number {
  const { data } = cutGrey(image, toPixels(region, CARD_LAYOUT));
  const paper = Uint8Array.from(data).sort()[data.length >> 1] as number;
  let dark = 0;
  for (const v of data) if (v < paper * 0.75) dark++;
  return dark / data.length;
}
