// Two-digit MRZ years placed by what the field is: a birth date in the past, an expiry within the
// longest validity of the document type, so a document that expired decades ago is expired — and
// the decision rejects it — whatever decade it expired in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeFraudSignals, type FraudFacts } from '../../../src/checks/fraud-signals/index.ts';
import { mrzOnlyResult } from '../../../src/checks/ocr/mrz-result.ts';
import { mrzDate, readMrz, readMrzLines } from '../../../src/checks/ocr/read-mrz.ts';
import { DEFAULT_THRESHOLDS, type DecisionInput, decide } from '../../../src/decision/index.ts';

/** ICAO 9303 Part 3 §4.9: weights 7, 3, 1; < is 0, A–Z are 10–35. Written here apart from the reader's. */
function digit(value: string): string {
  let sum = 0;
  [...value].forEach((c, i) => {
    const v = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += v * [7, 3, 1][i % 3]!;
  });
  return String(sum % 10);
}

const pad = (s: string, n: number) => s.padEnd(n, '<').slice(0, n);

/** A TD3 passport's two lines with every check digit right. */
function passport(expiry: string, birth = '850312', code = 'P<'): string[] {
  const number = 'L898902C3';
  const personal = pad('ZE184226B', 14);
  const l2head = `${number}${digit(number)}UTO${birth}${digit(birth)}F${expiry}${digit(expiry)}`;
  const l2 = `${l2head}${personal}${digit(personal)}`;
  const composite = digit(`${l2.slice(0, 10)}${l2.slice(13, 20)}${l2.slice(21, 43)}`);
  return [pad(`${code}UTOERIKSSON<<ANNA<MARIA`, 44), `${l2}${composite}`];
}

/** A TD1 identity card's three lines with every check digit right. */
function idCard(expiry: string, birth = '740812'): string[] {
  const number = 'D23145890';
  const l1 = pad(`I<UTO${number}${digit(number)}`, 30);
  const l2 = pad(`${birth}${digit(birth)}M${expiry}${digit(expiry)}UTO`, 29);
  const composite = digit(`${l1.slice(5, 30)}${l2.slice(0, 7)}${l2.slice(8, 15)}${l2.slice(18, 29)}`);
  return [l1, `${l2}${composite}`, pad('ERIKSSON<<ANNA<MARIA', 30)];
}

/** An MRV-A visa's two lines (no composite). */
function visa(expiry: string, birth = '900101'): string[] {
  const number = 'A12345678';
  const l2 = `${number}${digit(number)}UTO${birth}${digit(birth)}M${expiry}${digit(expiry)}`;
  return [pad('V<UTOERIKSSON<<ANNA<MARIA', 44), pad(l2, 44)];
}

const readOn = new Date('2026-12-02T09:00:00Z');
const band = { cx: 500, cy: 600, angle: 0, length: 900, thickness: 60, lines: 2, score: 1 };

function passing(fraud: ReturnType<typeof analyzeFraudSignals>): DecisionInput {
  return {
    liveness: { status: 'success', confidence: 0.97 },
    ocr: {
      status: 'success',
      result: { confidence: 0.93, status: 'success', detectedDocumentType: 'passport', frontOutline: {} },
    },
    expectedDocumentType: 'passport',
    documentSpoofCheck: { status: 'success', result: { risk: 'low', score: 0.05, confidence: 0.9 } },
    selfieSpoofCheck: { status: 'success', result: { risk: 'low', score: 0.02, confidence: 0.9 } },
    faceMatch: { status: 'success', result: { similarity: 0.91, status: 'success' } },
    fraudSignalAnalysis: { status: 'success', result: fraud },
    preRegisteredInfoMatch: null,
    userInputMatch: null,
  };
}

function fraudFacts(expiryDate: string | null, expiryDateReliable: boolean): FraudFacts {
  return {
    now: readOn,
    minimumAge: 18,
    sameFaceSimilarity: 0.75,
    sameFaceSessions: [],
    sameDocumentSessions: [],
    identitiesFromIpLastHour: 1,
    clientIp: null,
    firstAccessIp: null,
    userInput: null,
    ocr: null,
    expiryDate,
    expiryDateReliable,
    birthDate: null,
    checkDigitsValid: true,
    flowSeconds: 95,
    livenessSeconds: 8,
    blacklistHits: [],
  };
}

/** One expiry in each decade since 1990, as YYMMDD, with the year it is. */
const EXPIRED = [
  ['900615', '1990-06-15'],
  ['980104', '1998-01-04'],
  ['030301', '2003-03-01'],
  ['091231', '2009-12-31'],
  ['140720', '2014-07-20'],
  ['191111', '2019-11-11'],
  ['220228', '2022-02-28'],
  ['261201', '2026-12-01'],
] as const;

describe('MRZ dates', () => {
  it('places a birth date on or before the reading date', () => {
    assert.equal(mrzDate('850312', 'birth', readOn), '1985-03-12');
    assert.equal(mrzDate('261202', 'birth', readOn), '2026-12-02');
    assert.equal(mrzDate('261203', 'birth', readOn), '1926-12-03');
    assert.equal(mrzDate('050101', 'birth', readOn), '2005-01-01');
  });

  it("places an expiry within the document type's longest validity after the reading date", () => {
    // A passport: at most ten years ahead.
    assert.equal(mrzDate('980104', 'expiry', readOn, 'P'), '1998-01-04');
    assert.equal(mrzDate('361202', 'expiry', readOn, 'P'), '2036-12-02');
    assert.equal(mrzDate('361203', 'expiry', readOn, 'P'), '1936-12-03');
    // A visa likewise; an identity card up to thirty years.
    assert.equal(mrzDate('960101', 'expiry', readOn, 'V'), '1996-01-01');
    assert.equal(mrzDate('500101', 'expiry', readOn, 'I'), '2050-01-01');
    assert.equal(mrzDate('940101', 'expiry', readOn, 'I'), '1994-01-01');
    // The same digits read on another day: the day, not the machine's clock, decides.
    assert.equal(mrzDate('980104', 'expiry', new Date('1996-05-01T00:00:00Z'), 'P'), '1998-01-04');
    assert.equal(mrzDate('021231', 'expiry', new Date('1996-05-01T00:00:00Z'), 'P'), '2002-12-31');
  });

  it('refuses an impossible date', () => {
    assert.equal(mrzDate('980230', 'expiry', readOn, 'P'), undefined);
    assert.equal(mrzDate('98O104', 'expiry', readOn, 'P'), undefined);
  });

  for (const [yymmdd, iso] of EXPIRED) {
    for (const [kind, lines] of [
      ['passport (TD3)', passport(yymmdd)],
      ['identity card (TD1)', idCard(yymmdd)],
      ['visa (MRV-A)', visa(yymmdd)],
    ] as const) {
      it(`a ${kind} that expired on ${iso} is expired, and rejected document_expired`, () => {
        const reading = readMrzLines([...lines]);
        assert.ok(reading);
        assert.equal(reading.valid, true, reading.invalidFields.join());
        const read = mrzOnlyResult(
          { reading, band },
          {
            expectedDocumentType: 'passport',
            reference: readOn,
            base: { provider: 'test', model: 'test' },
            timingsMs: {},
          },
        );
        assert.equal(read.extras.expiryDate, iso);
        assert.equal(read.extras.expiryDateReliable, true);
        const fraud = analyzeFraudSignals(fraudFacts(iso, true));
        assert.equal(fraud.documentExpired, true);
        const decision = decide(passing(fraud), DEFAULT_THRESHOLDS);
        assert.deepEqual([decision.status, decision.reason], ['rejected', 'document_expired']);
      });
    }
  }

  it('a passport valid for another ten years is not expired', () => {
    const reading = readMrzLines(passport('360401'));
    assert.ok(reading?.valid);
    const read = mrzOnlyResult(
      { reading, band },
      {
        expectedDocumentType: 'passport',
        reference: readOn,
        base: { provider: 't', model: 't' },
        timingsMs: {},
      },
    );
    assert.equal(read.extras.expiryDate, '2036-04-01');
    assert.equal(analyzeFraudSignals(fraudFacts('2036-04-01', true)).documentExpired, false);
  });

  it("a Japanese passport's MRZ read at its layout carries its document code for the expiry", () => {
    const [l1, l2] = passport('980104', '850312');
    const mrz = readMrz(l1!.replace('UTO', 'JPN'), l2!.replace('UTO', 'JPN'));
    assert.ok(mrz);
    assert.equal(mrz.documentCode, 'P');
    assert.equal(mrzDate(mrz.expiryDate ?? '', 'expiry', readOn, mrz.documentCode), '1998-01-04');
  });

  it('an expiry in the past read too unsurely to reject on still never approves', () => {
    const fraud = analyzeFraudSignals(fraudFacts('1998-01-04', false));
    assert.equal(fraud.documentExpired, false);
    const decision = decide(passing(fraud), DEFAULT_THRESHOLDS);
    assert.deepEqual([decision.status, decision.reason], ['pending_review', 'document_expired']);
  });
});
