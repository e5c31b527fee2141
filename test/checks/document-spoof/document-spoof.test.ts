// documentSpoofCheck on the committed corpus sample: genuine documents are low
// risk, a screen replay is a display attack, a printed copy is medium or high, the OCR facts
// (check digits, expiry) mark tampering and expiry, and every result has the §2.9 shape.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import {
  type DocumentSpoofInput,
  documentSpoofCheck,
  documentSpoofFacts,
} from '../../../src/checks/document-spoof/index.ts';
import { describeDocumentFace, describeFace } from '../../../src/checks/face-match/index.ts';
import type { DocumentType } from '../../../src/checks/ocr/document-regions.ts';
import type { ApparentSex } from '../../../src/platform/ml/face-api.ts';
import { SpoofCheckSchema } from '../../../src/webhooks/webhook-payload.schema.ts';

const CORPUS = 'test/fixtures/corpus';
const REFERENCE_DATE = new Date('2026-04-01T00:00:00Z');
const DOCUMENT_ATTACKS = [
  'screen_replay',
  'printed_copy',
  'portrait_swap',
  'text_edit',
  'expired',
  'bad_check_digit',
];

type Sample = {
  id: string;
  attack: string | null;
  documentType: DocumentType;
  files: { front: string; back: string | null };
  truth: { expiryDate: string };
};
const samples = (
  JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { samples: Sample[] }
).samples;
const sample = (id: string) => samples.find((s) => s.id === id) as Sample;

function inputOf(s: Sample, ocr?: DocumentSpoofInput['ocr']): DocumentSpoofInput {
  return {
    front: readFileSync(path.join(CORPUS, s.files.front)),
    ...(s.files.back ? { back: readFileSync(path.join(CORPUS, s.files.back)) } : {}),
    ...(ocr ? { ocr } : {}),
    documentType: s.documentType,
    referenceDate: REFERENCE_DATE,
  };
}

/** The check on the front photo of a fixture under test/fixtures (a corpus bundle kept for one case). */
const runOnFixtureFront = (fixture: string, documentType: DocumentType) =>
  documentSpoofCheck.run({
    front: readFileSync(path.join('test/fixtures', fixture, 'front.jpg')),
    documentType,
    referenceDate: REFERENCE_DATE,
  });

/** What the OCR check reads off a genuine document of the sample, cleanly (as its extras carry it). */
const cleanReading = (s: Sample): DocumentSpoofInput['ocr'] => ({
  expiryDate: s.truth.expiryDate,
  expiryDateReliable: true,
  ...(s.documentType === 'passport'
    ? { mrz: { valid: true, invalidFields: [], matchesPrintedFields: true } }
    : {}),
  ...(s.documentType === 'my_number_card' ? { myNumberCheckDigitValid: true } : {}),
});

/**
 * Bona fide fronts of the sample the re-typed-value and portrait cues cannot judge: two typical
 * captures whose print is too blurred, and a poor one whose card layout does not fit the photo.
 * (A licence or a My Number card is measured by the portrait cue alone, at its issuer's portrait
 * box: a poor one, such as replayed_frames-0's licence, is judged by the others.)
 */
const NO_VERDICT: Record<string, RegExp> = {
  'warped_photo-0': /the print is too blurred/,
  'other_person-0': /the print is too blurred/,
  'residence_card-genuine-0': /the card's layout does not fit the photo/,
};

// Bona fide documents: the genuine bundles and the face-attack bundles (their document is genuine).
for (const s of samples.filter((s) => !s.attack || !DOCUMENT_ATTACKS.includes(s.attack))) {
  const why = NO_VERDICT[s.id];
  const label = !why
    ? 'low risk'
    : s.documentType === 'passport'
      ? 'low risk, its layout not judged'
      : 'too poor a capture to judge (no verdict)';
  test(`${s.id}: a genuine document is ${label}`, async () => {
    const { result } = await documentSpoofCheck.run(inputOf(s, cleanReading(s)));
    assert.equal(result.isDisplayAttack, false);
    assert.equal(result.isForgedOrTampered, false);
    assert.ok(Value.Check(SpoofCheckSchema, result), 'interface §2.9 shape');
    if (why && s.documentType === 'passport') {
      // A passport whose MRZ check digits hold is judged all the same; the details say what was not.
      assert.deepEqual([result.status, result.risk], ['success', 'low'], result.details);
      assert.match(result.details ?? '', /^no spoof cue fired; not judged: /);
      assert.match(result.details ?? '', why);
    } else if (why) {
      assert.deepEqual([result.status, result.risk], ['insufficient_quality', 'unknown'], result.details);
      assert.match(result.details ?? '', /^no spoof cue fired, but the capture is too poor/);
      assert.match(result.details ?? '', why);
    } else {
      assert.deepEqual([result.status, result.risk], ['success', 'low'], result.details);
      assert.equal(result.details, 'no spoof cue fired');
    }
  });
}

test('a clean genuine card whose OCR reading lacks what the check must see gets no verdict, not low', async () => {
  const s = sample('drivers_license-genuine-0');
  const judge = async (ocr: DocumentSpoofInput['ocr']) => await documentSpoofCheck.run(inputOf(s, ocr));
  const clean = await judge(cleanReading(s));
  assert.equal(clean.result.risk, 'low');
  assert.equal(clean.measurements.notJudged, undefined);
  // The expiry is validity, not authenticity: not read, the other cues still judge, the details
  // and `notJudged` say what the verdict did not cover (decide never approves on it).
  const noDate = await judge({});
  assert.deepEqual([noDate.result.status, noDate.result.risk], ['success', 'low'], noDate.result.details);
  assert.match(noDate.result.details ?? '', /not judged: the expiry date \(not read\)/);
  assert.deepEqual(noDate.measurements.notJudged, ['expiryDate']);
  const passport = sample('passport-genuine-0');
  const { result: noMrz } = await documentSpoofCheck.run(
    inputOf(passport, { expiryDate: passport.truth.expiryDate, expiryDateReliable: true }),
  );
  assert.match(noMrz.details ?? '', /the MRZ check digits \(not read cleanly\)/);
  const card = sample('face_swap_midway-0');
  const { result: noDigit } = await documentSpoofCheck.run(
    inputOf(card, { expiryDate: card.truth.expiryDate, expiryDateReliable: true }),
  );
  assert.match(noDigit.details ?? '', /the My Number check digit \(not read\)/);
  // The My Number is printed on the back: a front judged alone has no check digit to miss.
  const { back: _, ...frontOnly } = inputOf(card, {
    expiryDate: card.truth.expiryDate,
    expiryDateReliable: true,
  });
  const { result: frontAlone } = await documentSpoofCheck.run(frontOnly);
  assert.doesNotMatch(frontAlone.details ?? '', /My Number check digit/);
  // A cue that fires is a verdict whatever could not be judged besides.
  const expired = (await judge({ expiryDate: '2020-01-01' })).result;
  assert.deepEqual([expired.status, expired.risk], ['success', 'high']);
  assert.equal((await judge({ expiryDate: '2020-01-01' })).measurements.notJudged, undefined);
});

test('screen_replay-0: a document photographed off a screen is a display attack', async () => {
  const { result } = await documentSpoofCheck.run(inputOf(sample('screen_replay-0')));
  assert.equal(result.isDisplayAttack, true, result.details);
  assert.notEqual(result.risk, 'low');
  assert.match(result.details ?? '', /screen replay/);
  assert.equal(result.status, 'success');
  assert.equal(result.provider, 'mimoto');
  assert.ok(Value.Check(SpoofCheckSchema, result));
});

test('a poor photo of a screen, its moiré blurred away, is a display attack by the bezel around it', async () => {
  const { result, measurements } = await runOnFixtureFront('screen-replay-bezel', 'residence_card');
  assert.equal(result.isDisplayAttack, true, result.details);
  assert.equal(result.risk, 'high');
  assert.match(result.details ?? '', /bezel/);
  const moire = measurements.cues.find((c) => c.name.startsWith('screen replay (moiré'));
  assert.ok(moire && moire.score < 0.4, `the moiré cue alone would miss it (${moire?.score})`);
  assert.ok(measurements.front.frame.hullShare > 0.14 && measurements.front.frame.hollowness > 2.75);
});

test('printed_copy-0: a photocopy is medium or high risk, not a display attack', async () => {
  const { result } = await documentSpoofCheck.run(inputOf(sample('printed_copy-0')));
  assert.ok(result.risk === 'medium' || result.risk === 'high', `risk ${result.risk}`);
  assert.match(result.details ?? '', /printed copy/);
  assert.equal(result.isDisplayAttack, false);
});

test('bad_check_digit-0: a failed MRZ check digit from the OCR facts is forged, high risk', async () => {
  const s = sample('bad_check_digit-0');
  const { result } = await documentSpoofCheck.run(
    inputOf(s, {
      expiryDate: s.truth.expiryDate,
      mrz: {
        valid: false,
        invalidFields: ['documentNumberCheckDigit', 'compositeCheckDigit'],
        matchesPrintedFields: true,
      },
    }),
  );
  assert.equal(result.risk, 'high');
  assert.equal(result.isForgedOrTampered, true);
  assert.match(result.details ?? '', /MRZ check digits failed/);
  // Without the OCR facts the image alone shows nothing wrong (and this poor capture is too blurred
  // to judge): the cue really comes from them.
  const { result: alone } = await documentSpoofCheck.run(inputOf(s));
  assert.equal(alone.isForgedOrTampered, false);
  assert.deepEqual([alone.status, alone.risk], ['insufficient_quality', 'unknown'], alone.details);
});

test('a misread MRZ (formats broken, several digits off) is OCR trouble, not tampering: no verdict', async () => {
  const s = sample('passport-genuine-0');
  const { result, measurements } = await documentSpoofCheck.run(
    inputOf(s, {
      expiryDate: s.truth.expiryDate,
      mrz: {
        valid: false,
        invalidFields: ['birthDate', 'birthDateCheckDigit', 'sex', 'expirationDateCheckDigit'],
        matchesPrintedFields: true,
      },
    }),
  );
  // Its check digits could not be checked: the check does not vouch for the passport.
  assert.deepEqual([result.status, result.risk], ['insufficient_quality', 'unknown']);
  assert.match(result.details ?? '', /the MRZ check digits \(not read cleanly\)/);
  assert.equal(result.isForgedOrTampered, false);
  assert.ok(measurements.cues.some((c) => /MRZ not read cleanly/.test(c.name) && c.score > 0));
});

test('expired-0: an expiry date before the reference date raises the risk, not as tampering', async () => {
  const s = sample('expired-0');
  const { result } = await documentSpoofCheck.run(inputOf(s, { expiryDate: s.truth.expiryDate }));
  assert.notEqual(result.risk, 'low');
  assert.match(result.details ?? '', /expired/);
  assert.equal(result.isForgedOrTampered, false);
});

test('an expiry date the OCR does not rely on (read on a poor capture) is no spoof cue', async () => {
  const s = sample('expired-0');
  const unsure = await documentSpoofCheck.run(
    inputOf(s, { expiryDate: s.truth.expiryDate, expiryDateReliable: false }),
  );
  // Judged on its other cues, the expiry left out and said so (the OCR read the capture below its
  // threshold, which the decision sends to review whatever the verdict).
  assert.deepEqual([unsure.result.status, unsure.result.risk], ['success', 'low'], unsure.result.details);
  assert.match(unsure.result.details ?? '', /not judged: the expiry date \(not read reliably\)/);
  assert.deepEqual(unsure.measurements.notJudged, ['expiryDate']);
  assert.ok(!unsure.measurements.cues.some((c) => /expired/.test(c.name)));
});

test('a My Number check-digit failure is tampering', async () => {
  const { result } = await documentSpoofCheck.run(
    inputOf(sample('my_number_card-genuine-0'), { myNumberCheckDigitValid: false }),
  );
  assert.equal(result.isForgedOrTampered, true);
  assert.equal(result.risk, 'high');
});

test('a residence card name re-typed in bold is never judged genuine', async () => {
  // text_edit-7, typical capture: too blurred for the weight and ink cues to judge, so no verdict
  // (a review), never low.
  const edited = await runOnFixtureFront('text-edit-residence-name', 'residence_card');
  assert.notEqual(edited.result.risk, 'low', edited.result.details);
  // static_photo-0: a face attack whose residence card is genuine, clean capture.
  const genuine = await documentSpoofCheck.run(inputOf(sample('static_photo-0')));
  assert.ok(
    (genuine.measurements.textEdit?.inkShortfall ?? 1) < 0.03,
    JSON.stringify(genuine.measurements.textEdit),
  );
});

test('a bold name re-typed in a lighter ink is tampering', async () => {
  // A clean, sharp capture of a residence card whose surname was re-typed (the typical capture of
  // the same attack above is too blurred to judge the ink).
  const edited = await runOnFixtureFront('text-edit-residence-name-clean', 'residence_card');
  assert.equal(edited.result.risk, 'high', edited.result.details);
  assert.match(edited.result.details ?? '', /name printed in a lighter ink/);
});

test('a residence card birth date re-typed heavier and below its line is tampering', async () => {
  const edited = await runOnFixtureFront('text-edit-residence-birthdate', 'residence_card');
  // Heavier print alone rejects; the line's drop alone would send it to review (medium).
  assert.equal(edited.result.risk, 'high', edited.result.details);
  assert.match(edited.result.details ?? '', /birthDate printed heavier than the other values/);
  assert.equal(edited.result.isForgedOrTampered, true);
  assert.match(edited.result.details ?? '', /birthDate printed below the card's other lines/);
  assert.ok(
    (edited.measurements.textEdit?.baselineDrop ?? 0) > 6,
    JSON.stringify(edited.measurements.textEdit),
  );
});

test('glare on a genuine My Number card is no pasted patch', async () => {
  // The issuer's layout prints no tinted band on this card, and its printed values are not measured
  // for re-typing (their print geometry is unknown): the glare must not read as a patch.
  const { result, measurements } = await runOnFixtureFront('glare-on-band', 'my_number_card');
  assert.equal(measurements.textEdit, undefined);
  assert.equal(result.risk, 'low', result.details);
});

test('a back that prints another name than the front is tampering, and says which field', async () => {
  const { result } = await documentSpoofCheck.run(
    inputOf(sample('my_number_card-genuine-0'), { backDisagrees: ['name'] }),
  );
  assert.equal(result.isForgedOrTampered, true);
  assert.equal(result.risk, 'high');
  assert.match(result.details ?? '', /back prints another name/);
});

test("an address outside the area of the card's issuer is tampering, and names the issuer's area", async () => {
  const { result } = await documentSpoofCheck.run(
    // As the pipeline passes it on from the OCR check's extras.
    inputOf(sample('drivers_license-genuine-0'), documentSpoofFacts({ addressOutsideIssuer: '福岡県' })),
  );
  assert.equal(result.isForgedOrTampered, true);
  // Two lines as the OCR read them (a misread issuer line reads as another area): a review.
  assert.equal(result.risk, 'medium');
  assert.match(result.details ?? '', /address lies outside the issuer's area \(福岡県\)/);
});

test('a portrait that looks male on a card printed 女 F. adds to other cues; alone it is no verdict of tampering', async () => {
  const looksOf = async (s: Sample) => {
    const { face } = await describeDocumentFace(
      readFileSync(path.join(CORPUS, s.files.front)),
      s.documentType,
      (i) => describeFace(i, 'documentPortrait'),
    );
    assert.ok(face?.apparentSex, `${s.id}: a face in the portrait, its apparent sex estimated`);
    return face.apparentSex;
  };
  // A woman's driving licence (女 F. in its record), clean capture.
  const judge = async (s: Sample, portraitSex: ApparentSex) =>
    (await documentSpoofCheck.run({ ...inputOf(s, { sex: 'F' }), portraitSex })).result;
  const genuine = sample('drivers_license-genuine-0');
  const genuineLooks = await looksOf(genuine);
  assert.equal(genuineLooks.sex, 'F');
  // The corpus's people are all women (src/synth/faces.ts), and its portrait swaps glue one woman's
  // print over another's card: a man's portrait is not at hand. The look below stands for a sure
  // reading of one (a clear print of a man's photo read M at p ≥ 0.75 before the corpus changed).
  const manLooks: ApparentSex = { sex: 'M', probability: 0.94 };

  // A soft biometric, as sure when wrong as when right on real documents: alone it does not send a
  // genuine card to review.
  const read = { sex: 'F', expiryDate: genuine.truth.expiryDate } as const;
  const alone = await documentSpoofCheck.run({ ...inputOf(genuine, read), portraitSex: manLooks });
  assert.equal(alone.result.risk, 'low', alone.result.details);
  assert.equal(alone.result.isForgedOrTampered, false);
  assert.ok(
    alone.measurements.cues.some((c) => /portrait looks male.*card says F/.test(c.name) && c.score > 0),
    JSON.stringify(alone.measurements.cues),
  );
  // It adds to the other cues: with an MRZ not read cleanly the score rises, still short of a review
  // (on real documents photographed on a table both came together, on genuine passports).
  const misread = { valid: false, invalidFields: ['birthDate'], matchesPrintedFields: true };
  const withOther = await documentSpoofCheck.run({
    ...inputOf(genuine, { ...read, mrz: misread }),
    portraitSex: manLooks,
  });
  const otherAlone = await documentSpoofCheck.run(inputOf(genuine, { ...read, mrz: misread }));
  assert.ok((withOther.result.score ?? 0) > (otherAlone.result.score ?? 0) + 0.1, withOther.result.details);
  assert.notEqual(withOther.result.risk, 'medium', withOther.result.details);
  const bonaFide = await judge(genuine, genuineLooks);
  assert.equal(bonaFide.isForgedOrTampered, false, bonaFide.details);
  assert.doesNotMatch(bonaFide.details ?? '', /portrait looks/);
  // A look the net is unsure of is no cue: the sexes differ, the probability is near a coin toss.
  const unsure = await judge(genuine, { sex: 'M', probability: 0.6 });
  assert.equal(unsure.isForgedOrTampered, false, unsure.details);
});

/** The cue's score and the outline measured, on a front under test/fixtures/portrait-paste. */
const portraitOf = async (front: string, documentType: DocumentType) => {
  const { result, measurements } = await documentSpoofCheck.run({
    front: readFileSync(front),
    documentType,
    referenceDate: REFERENCE_DATE,
  });
  const cue = measurements.cues.find((c) => c.name.startsWith('portrait pasted over'));
  assert.ok(cue && measurements.portrait, 'the portrait cue is measured when the type is known');
  return { result, score: cue.score, outline: measurements.portrait };
};

test('a print glued over the portrait, turned and off the box, is tampering: rejected', async () => {
  const { result, outline } = await portraitOf(
    'test/fixtures/portrait-paste/turned-front.jpg',
    'residence_card',
  );
  assert.equal(result.risk, 'high', result.details);
  assert.equal(result.isForgedOrTampered, true);
  assert.match(
    result.details ?? '',
    /portrait pasted over the issued one \(its outline runs [\d.]+ units off the portrait box and is turned [\d.]+°\)/,
  );
  // Turned 1.9° by the forger's hand; the rectified card reads within half a degree of it.
  assert.ok(Math.abs(outline.tilt - 1.9) <= 0.5, `tilt ${outline.tilt}`);
});

test('a print cut smaller than the box shows the issued portrait beside it: rejected', async () => {
  const { result, outline } = await portraitOf(
    'test/fixtures/portrait-paste/inside-front.jpg',
    'residence_card',
  );
  assert.equal(result.risk, 'high', result.details);
  // On the left the box's own edge (the issued portrait against the card) stays the strongest and
  // the print's edge runs inside it, 5.5 units in at its middle and turned 1.5°.
  assert.ok((outline.displacement[0] ?? 0) >= 5, JSON.stringify(outline));
});

test('a print glued over a passport portrait, off the box and turned, is tampering: rejected', async () => {
  const { result, outline } = await portraitOf(
    'test/fixtures/portrait-paste/turned-across-front.jpg',
    'passport',
  );
  assert.equal(result.risk, 'high', result.details);
  assert.equal(result.isForgedOrTampered, true);
  // 5.6 units down: the print's outline runs off the box on its sides.
  assert.ok((outline.displacement[0] ?? 0) >= 3, JSON.stringify(outline));
});

test('a print glued over a licence portrait, turned, sends the licence to review', async () => {
  const { result, outline } = await portraitOf(
    'test/fixtures/portrait-paste/licence-turned-front.jpg',
    'drivers_license',
  );
  // Read at the issuer's portrait box; without the print geometry of the issuer's layout to judge
  // the capture by, the cue alone reaches medium: a person looks, the licence is not rejected.
  assert.equal(result.risk, 'medium', result.details);
  assert.equal(result.isForgedOrTampered, true);
  assert.match(
    result.details ?? '',
    /portrait pasted over the issued one \(its outline .*is turned [\d.]+°\)/,
  );
  // Turned 2.2° by the forger's hand.
  assert.ok(Math.abs(outline.tilt - 2.2) <= 0.5, `tilt ${outline.tilt}`);
});

test('a print glued over a My Number card portrait, turned and off the box, sends the card to review', async () => {
  const { result, outline } = await portraitOf(
    'test/fixtures/portrait-paste/my-number-turned-front.jpg',
    'my_number_card',
  );
  assert.equal(result.risk, 'medium', result.details);
  assert.equal(result.isForgedOrTampered, true);
  // Turned 2.1° anticlockwise, 1.06 × the box and 3.6 units right: its outline runs off the box.
  assert.ok(Math.abs(outline.tilt - 2.1) <= 0.5, `tilt ${outline.tilt}`);
  assert.ok((outline.displacement[1] ?? 0) >= 4.5, JSON.stringify(outline));
});

test('a genuine licence or My Number card portrait printed in its box shows no pasted print', async () => {
  const genuine: [string, DocumentType][] = [
    [path.join(CORPUS, sample('drivers_license-genuine-0').files.front), 'drivers_license'],
    [path.join(CORPUS, sample('expired-0').files.front), 'drivers_license'],
    [path.join(CORPUS, sample('my_number_card-genuine-0').files.front), 'my_number_card'],
    [path.join(CORPUS, sample('face_swap_midway-0').files.front), 'my_number_card'],
    ['test/fixtures/glare-on-band/front.jpg', 'my_number_card'],
  ];
  for (const [front, type] of genuine) {
    const { score, outline } = await portraitOf(front, type);
    assert.equal(score, 0, `${front}: ${JSON.stringify(outline)}`);
  }
});

test('a licence photographed upside down is read the way up its portrait shows', async () => {
  // The card's outline is put landscape, not necessarily the right way up: turned half a turn, a
  // genuine licence must not read as pasted over, and a glued print must still be seen.
  const turned = async (front: string, documentType: DocumentType) => {
    const { measurements } = await documentSpoofCheck.run({
      front: await sharp(readFileSync(front)).rotate(180).jpeg({ quality: 92 }).toBuffer(),
      documentType,
      referenceDate: REFERENCE_DATE,
    });
    return measurements.cues.find((c) => c.name.startsWith('portrait pasted over'))?.score;
  };
  assert.equal(
    await turned(path.join(CORPUS, sample('drivers_license-genuine-0').files.front), 'drivers_license'),
    0,
  );
  assert.equal(await turned('test/fixtures/portrait-paste/licence-turned-front.jpg', 'drivers_license'), 0.6);
});

test('a print turned across the box, its edges crossing the issued ones, is tampering: rejected', async () => {
  const { result, outline } = await portraitOf(
    'test/fixtures/portrait-paste-across/front.jpg',
    'residence_card',
  );
  assert.equal(result.risk, 'high', result.details);
  assert.equal(result.isForgedOrTampered, true);
  // The box's size, centred and turned 2°: no side stands off the box, two sides' edges turn alike.
  assert.deepEqual(outline.displacement, []);
  assert.ok(Math.abs(outline.tilt - 2) <= 0.5, `tilt ${outline.tilt}`);
});

test('on a blurred capture a glued print goes to review, not to rejection', async () => {
  const { result, score } = await portraitOf(
    'test/fixtures/portrait-paste-blurred/front.jpg',
    'residence_card',
  );
  assert.equal(score, 0.6);
  assert.equal(result.risk, 'medium', result.details);
  assert.equal(result.isForgedOrTampered, true);
});

test('a genuine portrait printed in its box shows no pasted print', async () => {
  const genuine: [string, DocumentType][] = [
    ['test/fixtures/ocr-rereads/residence-name-front.jpg', 'residence_card'],
    ['test/fixtures/passport-number-lookalikes/front.jpg', 'passport'],
    [path.join(CORPUS, sample('static_photo-0').files.front), 'residence_card'],
    [path.join(CORPUS, sample('passport-genuine-0').files.front), 'passport'],
  ];
  for (const [front, type] of genuine) {
    const { score, outline } = await portraitOf(front, type);
    assert.equal(score, 0, `${front}: ${JSON.stringify(outline)}`);
  }
});

test('the check records its id, version, model and a score in [0, 1]', async () => {
  assert.equal(documentSpoofCheck.id, 'documentSpoofCheck');
  const { result } = await documentSpoofCheck.run(inputOf(sample('passport-genuine-0')));
  assert.match(result.model ?? '', /@\d+\.\d+\.\d+$/);
  assert.ok((result.score ?? -1) >= 0 && (result.score ?? 2) <= 1);
  assert.ok((result.confidence ?? -1) > 0 && (result.confidence ?? 2) <= 1);
});

test('a flat scan of an MRZ document (the page fills the image, no card outline) is judged by its MRZ, not left without a verdict', async () => {
  const { renderTextImage } = await import('../ocr/render-text-image.ts');
  const mrz = ['P<UTOERIKSSON<<ANNA<MARIA'.padEnd(44, '<'), 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
  const page = await renderTextImage(
    [
      { text: 'UTOPIA  PASSPORT  SPECIMEN', x: 40, y: 60, size: 30 },
      { text: 'Surname  ERIKSSON   Given names  ANNA MARIA', x: 40, y: 130, size: 22 },
      ...mrz.map((line, row) => ({ text: line, x: 40, y: 260 + row * 40, size: 26 })),
    ],
    1000,
    340,
  );
  const facts = {
    expiryDate: '2031-09-20',
    expiryDateReliable: true,
    mrz: { valid: true, invalidFields: [], matchesPrintedFields: true, format: 'TD3' as const },
  };
  const run = (ocr: DocumentSpoofInput['ocr']) =>
    documentSpoofCheck.run({ front: page, documentType: 'passport', referenceDate: REFERENCE_DATE, ocr });
  // Read in mimoto's synthetic passport layout without its card found, the layout's cues are not
  // measured, and the details say so; the MRZ check digits vouch for the values: a verdict.
  const asSynthetic = (await run(facts)).result;
  assert.deepEqual([asSynthetic.status, asSynthetic.risk], ['success', 'low'], asSynthetic.details);
  assert.match(
    asSynthetic.details ?? '',
    /not judged: the printed values and the portrait \(the card was not found\)/,
  );
  // Without a cleanly read MRZ nothing vouches for them: no verdict.
  const misread = (
    await run({ ...facts, mrz: { ...facts.mrz, valid: false, invalidFields: ['birthDate', 'sex'] } })
  ).result;
  assert.equal(misread.status, 'insufficient_quality');
  assert.match(misread.details ?? '', /the card was not found/);
  // Read from its MRZ (the OCR check's MRZ-only result: the issuer's layout), its check digits judge it.
  const fromMrz = (await run({ ...facts, layout: 'official' })).result;
  assert.deepEqual([fromMrz.status, fromMrz.risk], ['success', 'low'], fromMrz.details);
  // A check digit that fails on a clean reading is still an altered value.
  const altered = (
    await run({
      ...facts,
      layout: 'official',
      mrz: { ...facts.mrz, valid: false, invalidFields: ['birthDateCheckDigit'] },
    })
  ).result;
  assert.equal(altered.risk, 'high');
  // Read from its MRZ alone on a capture the OCR read below its threshold (documentSpoofFacts
  // given the OCR result): a misread MRZ is said to be unjudged, the picture's cues judge (the
  // decision reviews the poor capture whatever the verdict); read confidently, it withholds the verdict.
  const misreadFacts = {
    ...facts,
    layout: 'official' as const,
    mrz: { ...facts.mrz, valid: false, invalidFields: ['birthDate', 'sex'] },
  };
  const poor = (await run(documentSpoofFacts(misreadFacts, { confidence: 0.5 }))).result;
  assert.deepEqual([poor.status, poor.risk], ['success', 'low'], poor.details);
  assert.match(
    poor.details ?? '',
    /not judged: the MRZ check digits \(not read cleanly\) \(a capture the OCR read below its threshold\)/,
  );
  const confident = (await run(documentSpoofFacts(misreadFacts, { confidence: 0.9 }))).result;
  assert.equal(confident.status, 'insufficient_quality', confident.details);
  // …and a cleanly failing check digit on such a capture is still an altered value.
  const alteredPoor = (
    await run(
      documentSpoofFacts(
        { ...misreadFacts, mrz: { ...facts.mrz, valid: false, invalidFields: ['birthDateCheckDigit'] } },
        { confidence: 0.5 },
      ),
    )
  ).result;
  assert.equal(alteredPoor.risk, 'high');
});
