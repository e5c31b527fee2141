// The ocr check (docs/ocr.md; result shape: interface §2.6). Its steps, each in its own file:
// 1. find the document in the photo and flatten it (locate-front.ts, find-document.ts);
// 2. tell the document type from its printed title or a passport's MRZ (classify-front.ts,
//    classify-document.ts); a foreign passport or an ID card is read by its MRZ alone;
// 3. read each field from where our layouts print it (document-regions.ts), one Tesseract
//    single-line pass per field, read again while unsure or unfitting (read-front-fields.ts,
//    read-region.ts), within the document's read budget (read-budget.ts);
// 4. correct each field by its known shape (interpret-front-fields.ts, correct-fields.ts);
//    licences and My Number cards: the printed address must lie in the issuer's area
//    (issuing-authority.ts);
// 5. passports: read the MRZ, repair it by check digits and cross-check the printed fields
//    (read-passport.ts); My Number and residence cards: the back against the front (read-back.ts);
// 6. per-field and overall confidence; below OCR_CONFIDENCE_THRESHOLD the status is
//    low_confidence, so a poor capture goes to review instead of passing wrong values on
//    (assemble-result.ts).
import type { Check } from '../check.ts';
import { assembleResult, fromMrz } from './assemble-result.ts';
import { classifyFront, settleType } from './classify-front.ts';
import { ocrDefinition } from './definition.ts';
import { DOCUMENT_TYPES } from './document-regions.ts';
import { type DocumentGeometry, geometryInThisThread } from './find-document.ts';
import { interpretFrontFields } from './interpret-front-fields.ts';
import { locateFront } from './locate-front.ts';
import { isForeignMrz } from './mrz-result.ts';
import { getOcrEngineFor, type OcrEngine, type OcrLanguage } from './ocr-engine.ts';
import type { OcrCheckInput, OcrCheckResult } from './ocr-result.ts';
import { locatedMrz, startRun } from './ocr-run.ts';
import { readBackSide } from './read-back.ts';
import { ASSUMED_TYPE_FIELD_READ_BUDGET, FIELD_READ_BUDGET } from './read-budget.ts';
import { frontPageFor, readFrontFields } from './read-front-fields.ts';
import { crossCheckMrz } from './read-passport.ts';

// 1.8.0: a capture on which nothing names the type is read as the type the user chose (below the
// threshold), instead of not at all.
// 1.8.1: an MRZ with a filler where a check digit must stand is a misread (mrzFailureKind), not a
// failed check digit: no check_digit_failure, no low_confidence verdict on it.
// 1.8.2: the My Number is read again at 0.5× too when no reading passes its check digit.
// 1.8.3: a key value only the local threshold read is confirmed by the global one at half size.
// 1.8.4: an address with no number before 丁目 is not read as one (read again, else left out).
// 2.0.0: cards read in the issuer's layout (src/documents) by what they print, the whole photo read
// when no outline is found; the MRZ found anywhere and read as TD1, TD2, TD3 or a visa.
// 2.0.1: the licence's issuer read as the two lines it is printed on (北海道 / 公安委員会).
// 2.0.2: in an MRZ under 6.5 px a character, the letters no check digit covers are compared with the
// zone's own glyphs (mrz-glyphs.ts); the outline the finder returned is in the extras
// (documentOutline), for the document check.
// 2.1.0: kanji names checked against IPADIC's person names (a name it does not know read again at
// other scales; a name without a space cut where a known part ends); a municipality missing a
// glyph restored; a passport's domicile read as the prefecture one letter off.
// 2.2.0: a licence's and a My Number card's birth date and expiry checked against each other (the
// expiry a birthday gives, documents/card-validity.ts): read again preferring agreement; a licence
// whose two still disagree is held below the threshold (extras.licenceDatesDisagree).
// A Latin name line whose spaces are all alike is cut after its first word and the particles that
// begin a surname (the residence card prints the surname first). A licence's back read for the
// changes of address its 備考 records: the last is the address reported (licence-remarks.ts).
// 2.3.0: Japanese field lines read by a second recogniser, PaddleOCR's Japanese model
// (line-recogniser.ts): a line both read alike is confirmed; one they read otherwise is not sure
// (read again, held at 0.65 when nothing agrees); a line Tesseract cannot fit, the second reads.
// 2.4.0: an address whose text after its prefecture names none of that prefecture's
// municipalities is read again (the second recogniser's, then other scales'), the first that does
// taken; a misread municipality restored to the fit that keeps two characters more than any other
// (天草郡共北町 → 天草郡苓北町, not 天草市). The second recogniser on onnxruntime-node (native).
// The number itself is declared with the check in the registry (definition.ts).
export const OCR_CHECK_VERSION = ocrDefinition.version;

export interface OcrCheckOptions {
  /** Engine for one language (default: the process-wide engines). */
  engine?: (languages: readonly OcrLanguage[]) => Promise<OcrEngine>;
  /** The clock, for two-digit MRZ years and birth-date plausibility. */
  now?: () => Date;
  /** Where the document is found and rectified (default: in the calling thread). */
  geometry?: DocumentGeometry;
}

export function createOcrCheck(options: OcrCheckOptions = {}): Check<OcrCheckInput, OcrCheckResult> {
  const settings = {
    loadEngine: options.engine ?? getOcrEngineFor,
    now: options.now ?? (() => new Date()),
    geometry: options.geometry ?? geometryInThisThread,
    version: OCR_CHECK_VERSION,
  };
  return {
    id: ocrDefinition.id,
    version: OCR_CHECK_VERSION,
    async run(input) {
      const run = await startRun(settings, input);
      const choseType = (type: string) => input.expectedDocumentType === type;
      // A passport's MRZ is looked for while the outline is (the outline search runs in the
      // geometry thread): it usually decides alone (below).
      // (Its failure, if any, surfaces where it is awaited, not as an unhandled rejection.)
      if (choseType('passport')) locatedMrz(run).catch(() => undefined);
      const photo = await locateFront(run);

      // A passport the user chose: its MRZ first. Another state's passport (or an ID card or visa)
      // has no Japanese layout to read, so its MRZ is the reading, and the card layouts' passes
      // are not spent on it; a Japanese passport goes on to its printed fields (the zone found is
      // reused there).
      if (choseType('passport')) {
        const found = await locatedMrz(run);
        if (found && isForeignMrz(found.reading))
          return fromMrz(run, found, photo.wholeFrame ? undefined : photo.frontOutline);
      }

      const told = await classifyFront(run, photo);
      const settled = await settleType(run, photo, told.classification);
      if ('result' in settled) return settled.result;
      const { classification } = settled;
      const { type } = classification;
      const documentTypeMismatch =
        (DOCUMENT_TYPES as readonly string[]).includes(input.expectedDocumentType) && !choseType(type);

      const front = frontPageFor(run, type, type === 'passport' ? await told.passportPage() : told.card);
      const readings = await readFrontFields(
        run,
        front,
        classification.assumed ? ASSUMED_TYPE_FIELD_READ_BUDGET : FIELD_READ_BUDGET,
      );
      const reading = await interpretFrontFields(run, front, readings, photo, documentTypeMismatch);
      if (type === 'passport') await crossCheckMrz(run, reading);
      await readBackSide(run, front, reading);
      return assembleResult(run, front, reading, classification);
    },
  };
}

/** The process-wide ocr check (the shared engine, the real clock). */
export const ocrCheck = createOcrCheck();
