// A bounded property-based fuzz of what a reader client hands the service (EF.SOD, DG1, DG2,
// DG14, DG15, the Active Authentication answer): genuine files with bytes flipped, cut or spliced,
// and random bytes. verifyChipReading either rejects the reading (ChipReadingRejected) or returns a
// result; it never throws anything else, and a changed signed byte is never verified. Fixed seed
// (FUZZ_SEED to explore another, FUZZ_RUNS to scale).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { readEmrtd } from '../../packages/chip/src/index.ts';
import { type ChipReading, ChipReadingRejected, verifyChipReading } from '../../src/chip/index.ts';
import { SoftwareCard } from '../helpers/chip/software-card.ts';
import { buildTestDocument, type TestDocument } from '../helpers/chip/test-document.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 44);
const RUNS = Math.max(1, Math.round(300 * Number(process.env.FUZZ_RUNS ?? 1)));

let doc: TestDocument;
let reading: ChipReading;
let nonce: Buffer;

before(async () => {
  doc = await buildTestDocument();
  nonce = randomBytes(8);
  const r = await readEmrtd(new SoftwareCard(doc), { access: doc.access, activeAuthenticationNonce: nonce });
  reading = {
    sod: r.sod,
    dataGroups: r.dataGroups,
    activeAuthenticationSignature: r.activeAuthentication!.signature,
  };
});

type Part = 'sod' | 1 | 2 | 14 | 15 | 'aa';
const get = (r: ChipReading, part: Part): Buffer | undefined =>
  part === 'sod' ? r.sod : part === 'aa' ? r.activeAuthenticationSignature : r.dataGroups[part];
function set(r: ChipReading, part: Part, bytes: Buffer): ChipReading {
  if (part === 'sod') return { ...r, sod: bytes };
  if (part === 'aa') return { ...r, activeAuthenticationSignature: bytes };
  return { ...r, dataGroups: { ...r.dataGroups, [part]: bytes } };
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 40 }) }),
  fc.record({ kind: fc.constant('random' as const), bytes: fc.uint8Array({ maxLength: 2000 }) }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(bytes: Buffer, m: Mutation): Buffer {
  if (m.kind === 'random') return Buffer.from(m.bytes);
  if (bytes.length === 0) return bytes;
  const at = m.at % bytes.length;
  if (m.kind === 'flip') {
    const out = Buffer.from(bytes);
    out[at] = (out[at] as number) ^ m.mask;
    return out;
  }
  if (m.kind === 'cut') return bytes.subarray(0, at);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]);
}

describe('chip input fuzz', () => {
  test('a mangled reading is rejected or judged, never a crash, and a flipped DG1 byte is never verified', () => {
    fc.assert(
      fc.property(fc.constantFrom<Part>('sod', 1, 2, 15, 'aa'), mutation, (part, m) => {
        const original = get(reading, part) as Buffer;
        const changed = mutate(original, m);
        const input = set(reading, part, changed);
        let v: ReturnType<typeof verifyChipReading>;
        try {
          v = verifyChipReading(input, { trustAnchors: [doc.csca.certificate], nonce, now: new Date() });
        } catch (error) {
          assert.ok(error instanceof ChipReadingRejected, `${part} ${m.kind}: ${(error as Error).stack}`);
          return;
        }
        if (part !== 'sod' && !changed.equals(original))
          assert.equal(v.verified, false, `${part} ${m.kind} verified`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
