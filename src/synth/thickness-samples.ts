// One card's photos for the thickness capture: its front as the corpus photographs it, the card
// held tilted (edge showing), and the two presentations without an edge, tilted the same way (a
// cut-out paper copy, a phone screen). Used by the bench (bench/card-thickness.bench.ts) and to
// make the test fixtures (test/fixtures/thickness, `node --import tsx scripts/…`).
import { drawCaptureParameters } from './capture-parameters.ts';
import { createDocumentRecord, type DocumentType } from './document-record.ts';
import { packagedFacePeople, portraitPhoto, sexOfPerson } from './faces.ts';
import { photographDocument } from './photograph-document.ts';
import { Random } from './random.ts';
import { renderDocumentSide } from './render-document.ts';
import {
  drawTiltParameters,
  photographTiltedAttack,
  photographTiltedCard,
  type TiltParameters,
} from './tilted-card.ts';

export interface ThicknessSample {
  documentType: DocumentType;
  front: Buffer;
  /** Its back (the flow asks for it), when asked for. */
  back?: Buffer;
  tilted: { card: Buffer; paper_copy: Buffer; screen: Buffer };
  parameters: TiltParameters;
}

export async function generateThicknessSample(
  seed: string,
  documentType: Exclude<DocumentType, 'passport'>,
  options: { quality?: 'clean' | 'typical'; width?: number; referenceDate?: string; back?: boolean } = {},
): Promise<ThicknessSample> {
  const random = new Random(seed);
  const quality = options.quality ?? 'typical';
  const width = options.width ?? 1280;
  const people = await packagedFacePeople();
  const person = random.pick([...people.keys()]);
  const portrait = portraitPhoto(people.get(person) ?? []);
  const record = createDocumentRecord(
    random.fork('record'),
    documentType,
    sexOfPerson(person),
    options.referenceDate ?? '2026-04-01',
  );
  const card = await renderDocumentSide(record, 'front', portrait);
  if (!card) throw new Error(`${documentType} has no front`);
  const front = await photographDocument(card, drawCaptureParameters(random.fork('front'), quality, width));
  const parameters = drawTiltParameters(random.fork('tilt'), quality, width);
  const backSide = options.back ? await renderDocumentSide(record, 'back', portrait) : null;
  const back = backSide
    ? await photographDocument(backSide, drawCaptureParameters(random.fork('back'), quality, width))
    : undefined;
  return {
    documentType,
    front,
    ...(back ? { back } : {}),
    tilted: {
      card: await photographTiltedCard(card, parameters),
      paper_copy: await photographTiltedAttack(card, 'paper_copy', random.fork('paper'), parameters),
      screen: await photographTiltedAttack(card, 'screen', random.fork('screen'), parameters),
    },
    parameters,
  };
}
