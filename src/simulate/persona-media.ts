// What each simulated person brings to the hosted flow: a made-up identity, the
// photographs of its document and the face shown to the camera, all drawn from the synthetic
// corpus generator with one seeded generator per persona and seed, so a run is repeatable.
import sharp from 'sharp';
import { LIGHT_FADE_MS, type LivenessStep, lightAt, lightRgb } from '../liveness/index.ts';
import { drawScreenReplayParameters, showOnScreen } from '../synth/document-attacks.ts';
import type { FaceSceneParameters } from '../synth/face-scene.ts';
import { cutsOfOnePhoto, portraitPhoto } from '../synth/faces.ts';
import type { Identity } from '../synth/identity.ts';
import {
  createDocumentRecord,
  createIdentityFor,
  type DocumentRecord,
  type DocumentType,
  drawCaptureParameters,
  facePeople,
  POSES,
  type Quality,
  Random,
  REFERENCE_DATE,
  renderDocument,
  renderHeadPose,
  sexOfPerson,
} from '../synth/index.ts';
import { faceModelFor, fitFaceScene } from '../synth/liveness-capture.ts';
import {
  composeCapture,
  finishCapture,
  photographDocument,
  type RgbImage,
} from '../synth/photograph-document.ts';
import { renderFaceAttackFrames } from './face-attack-frames.ts';
import { isLatinName, type Persona, type PresentedIdentity } from './personas.ts';
import { type ChallengeFrame, renderChallengeFrames } from './render-challenge-frames.ts';
import { drawScreenLightStrength, reflectScreenLight } from './screen-light-reflection.ts';

export {
  documentTypesForName,
  isPersona,
  PERSONAS,
  type Persona,
  type PresentedIdentity,
} from './personas.ts';

/** Width of the document photographs, as the corpus (a phone photo scaled for upload). */
const CAPTURE_WIDTH = 1280;
/** A poor capture made blurrier still (the corpus's poor range tops out at 2.2). */
const BLURRY_SIGMA = 2.6;

/** The seed's identity with the presented fields in place; a name in Latin letters is printed upper case. */
function presentIdentity(identity: Identity, presented: PresentedIdentity): Identity {
  const defined = Object.fromEntries(Object.entries(presented).filter(([, v]) => v !== undefined));
  const latin = (name: string | undefined) =>
    name !== undefined && isLatinName(name) ? name.toUpperCase() : undefined;
  return {
    ...identity,
    ...defined,
    lastNameLatin: latin(presented.lastName) ?? identity.lastNameLatin,
    firstNameLatin: latin(presented.firstName) ?? identity.firstNameLatin,
  };
}

/** What the personal data form receives: the identity printed on the document (interface §2.3). */
export interface PersonalData {
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  birthDate: string;
  address: string;
}

export interface PersonaMedia {
  persona: Persona;
  documentType: DocumentType;
  /** Whose portrait is on the document, and whose face the camera sees. */
  documentPerson: string;
  facePerson: string;
  personalData: PersonalData;
  /**
   * The document photo of a side. `take` counts retakes (0 first): a retake after the server
   * refused the picture is a better photo, as a person would take after the on-screen hint.
   */
  photographSide(side: 'front' | 'back', take: number): Promise<{ jpeg: Buffer; description: string }>;
  /**
   * The camera frames of one attempt at a challenge, JPEG. `onFrame` is called when each is
   * captured and answers its capture time (ms), at which the face is lit by the colour the page
   * shows then (`lightColours`, the challenge's screen-light sequence) — if a face is there to be
   * lit: an injected stream or a replay on a screen is not.
   */
  captureFrames(
    steps: readonly LivenessStep[],
    onFrame: (i: number) => number,
    lightColours?: readonly string[],
  ): Promise<Buffer[]>;
}

function pickOther(random: Random, items: readonly string[], not: string): string {
  return random.pick(items.filter((item) => item !== not));
}

/** How far each photo's head is turned from the camera (degrees; Infinity when no face model). */
async function headAngles(
  photos: readonly string[],
  scene: FaceSceneParameters,
): Promise<Map<string, number>> {
  const angles = new Map<string, number>();
  for (const photo of photos) {
    const model = await faceModelFor(photo, scene, false).catch(() => null);
    angles.set(
      photo,
      model ? Math.hypot(model.sourcePose.yaw, model.sourcePose.pitch) : Number.POSITIVE_INFINITY,
    );
  }
  return angles;
}

/**
 * Identity photos are frontal by rule (ICAO 9303 and the Japanese issuing rules: full face,
 * looking at the camera), so a document portrait is drawn from the photos within this angle, as
 * the corpus generator draws its selfies (src/synth/generate-corpus.ts MAX_SOURCE_ANGLE).
 */
const MAX_PORTRAIT_ANGLE = 13;

/** The photos frontal enough for a portrait; at least the most frontal one. */
function frontalPhotos(photos: readonly string[], angles: Map<string, number>): string[] {
  // Cuts of one photo were chosen frontal when cut (synth/faces.ts); the ID cut stays the first.
  if (cutsOfOnePhoto(photos)) return [...photos];
  const frontal = photos.filter((p) => (angles.get(p) ?? Number.POSITIVE_INFINITY) <= MAX_PORTRAIT_ANGLE);
  return frontal.length > 0 ? frontal : [mostFrontalPhoto(photos, angles)];
}

/** The photo whose head faces the camera most squarely: it makes the best 3D head (cf. generate-corpus.ts). */
function mostFrontalPhoto(photos: readonly string[], angles: Map<string, number>): string {
  return [...photos].sort(
    (a, b) => (angles.get(a) ?? Number.POSITIVE_INFINITY) - (angles.get(b) ?? Number.POSITIVE_INFINITY),
  )[0] as string;
}

function drawFaceScene(random: Random): FaceSceneParameters {
  return {
    width: 320,
    height: 240,
    faceWidth: Math.round(random.range(1.45, 1.6) * 1000) / 1000,
    centre: [
      Math.round(random.range(0.47, 0.53) * 1000) / 1000,
      // Eyes at 40-46 % of the frame's height (the cut puts them at 40 % of the photo's).
      Math.round(random.range(0.6, 0.66) * 1000) / 1000,
    ],
    background: {
      kind: 'stone',
      colour: random.pick([
        [205, 200, 190],
        [175, 185, 195],
      ] as [number, number, number][]),
      seed: random.int(0, 2 ** 30),
    },
  };
}

function personalDataOf(record: DocumentRecord): PersonalData {
  const { identity } = record;
  return {
    lastName: identity.lastName,
    firstName: identity.firstName,
    lastNameKana: identity.lastNameKana,
    firstNameKana: identity.firstNameKana,
    birthDate: identity.birthDate,
    // A passport prints no address; the person still types where they live.
    address: identity.address,
  };
}

async function encodeFrame(frame: ChallengeFrame): Promise<Buffer> {
  const { data, width, height } = frame.image;
  return sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88, chromaSubsampling: '4:2:0' })
    .toBuffer();
}

/**
 * The media of one persona. `documentType` is chosen by the caller (from the tenant's allowed
 * types); everything else follows from (persona, seed).
 */
export async function preparePersonaMedia(
  persona: Persona,
  seed: number,
  documentType: DocumentType,
  facesDir?: string,
  referenceDate: string = new Date().toISOString().slice(0, 10),
  presented: PresentedIdentity = {},
): Promise<PersonaMedia> {
  const label = `simulate:${seed}:${persona}`;
  const root = new Random(label);
  const people = await facePeople(facesDir);
  const names = [...people.keys()];
  // A residence card is a foreign resident's, the other documents a Japanese national's, and a
  // face is one person with one identity: every third fixture person (by name) is a foreign
  // resident, the others Japanese. Otherwise one face would show up under two identities across
  // sessions, which the fraud check rightly flags (same_face_different_identity).
  const isForeign = (name: string) => [...names].sort().indexOf(name) % 3 === 1;
  const holders = names.filter((name) => isForeign(name) === (documentType === 'residence_card'));
  const documentPerson = root.pick(holders);
  const facePerson = persona === 'impostor' ? pickOther(root, names, documentPerson) : documentPerson;
  const scene = drawFaceScene(root.fork('scene'));
  const documentPhotos = people.get(documentPerson) ?? [];
  const angles = await headAngles(
    [...new Set([...documentPhotos, ...(people.get(facePerson) ?? [])])],
    scene,
  );
  const portraitFile = portraitPhoto(frontalPhotos(documentPhotos, angles));
  // One identity per face (fixed, as a person's is), on a document valid on `referenceDate`
  // (today for a run against a server): otherwise the fraud check would rightly see one face
  // under several identities, and the expiry check documents that ran out since the corpus date.
  const sex = sexOfPerson(documentPerson);
  const identity = presentIdentity(
    createIdentityFor(new Random(`simulate:identity:${documentPerson}`), documentType, sex, REFERENCE_DATE),
    presented,
  );
  const record = createDocumentRecord(root.fork('record'), documentType, sex, referenceDate, identity);
  // The live face is another photo of the face's person than the one their own document prints,
  // for an impostor as for the holder: that ID cut is close (3.9 eye distances, the others 6.6-7),
  // and the head rendered from it through the challenge's turns failed the live check
  // (pose_order_mismatch, no_face, face_changed), so an impostor never reached the face match.
  const livePhotos = people.get(facePerson) ?? [];
  const livePortrait = portraitPhoto(frontalPhotos(livePhotos, angles));
  const faceCandidates = livePhotos.filter((f) => f !== portraitFile && f !== livePortrait);
  const facePhoto = mostFrontalPhoto(faceCandidates, angles);
  const liveScene = await fitFaceScene(facePhoto, scene);

  const photographSide = async (side: 'front' | 'back', take: number) => {
    const flat = await renderDocument(record, side, portraitFile);
    if (!flat) throw new Error(`a ${documentType} has no ${side} side`);
    // Its own generator per side and take: the same call gives the same bytes, in any order.
    const random = new Random(`${label}:${documentType}:${side}:take-${take}`);
    if (persona === 'screen-replay') {
      // As the corpus's screen_replay attack: a clean earlier photo shown on a screen, photographed.
      const shownParams = drawCaptureParameters(random, 'clean', 960);
      const screen = drawScreenReplayParameters(random);
      const params = drawCaptureParameters(random, take === 0 ? 'typical' : 'clean', CAPTURE_WIDTH);
      const object = showOnScreen(composeCapture(flat, shownParams), screen);
      const jpeg = await finishCapture(composeCapture(object, params), params);
      return {
        jpeg,
        description: `the document shown on a ${screen.panelWidth}-px-wide screen, photographed`,
      };
    }
    // Retakes get better: poor → typical → clean.
    const ladder: Quality[] =
      persona === 'blurry-document' ? ['poor', 'typical', 'clean'] : ['clean', 'clean', 'clean'];
    const quality = ladder[Math.min(take, ladder.length - 1)] as Quality;
    const params = drawCaptureParameters(random, quality, CAPTURE_WIDTH);
    if (persona === 'blurry-document' && take === 0) params.blur = Math.max(params.blur, BLURRY_SIGMA);
    return {
      jpeg: await photographDocument(flat, params),
      description: `${quality} capture (blur σ ${params.blur}, glare ${params.glare.strength}, JPEG q${params.jpegQuality})`,
    };
  };

  const lightStrength = drawScreenLightStrength(root.fork('screen-light'));
  // Each frame as the camera sees it at time t: the person (or the print they hold) in the
  // screen's light; the colour is the one the page showed at t, none in a cross-fade.
  const litByScreen = (image: RgbImage, t: number, colours: readonly string[]): RgbImage => {
    const colour = lightAt(colours, t) ?? lightAt(colours, t + LIGHT_FADE_MS);
    return colour ? reflectScreenLight(image, lightRgb(colour), lightStrength, liveScene.centre) : image;
  };
  const captureFrames = async (
    steps: readonly LivenessStep[],
    onFrame: (i: number) => number,
    lightColours: readonly string[] = [],
  ) => {
    if (persona === 'photo-attack') {
      // A printed photo held up to the camera: the same frontal picture in every frame.
      // Paper reflects the screen's light as skin does.
      const image = await renderHeadPose(facePhoto, POSES.center, liveScene);
      const frames: Buffer[] = [];
      for (let i = 0; i < 15; i++) {
        frames.push(
          await encodeFrame({ pose: 'center', image: litByScreen(image, onFrame(i), lightColours) }),
        );
      }
      return frames;
    }
    if (persona === 'video-replay' || persona === 'face-injection') {
      const frames = await renderFaceAttackFrames(persona, facePhoto, steps, liveScene, label, onFrame);
      return Promise.all(frames.map((image) => encodeFrame({ pose: 'center', image })));
    }
    const times: number[] = [];
    const rendered = await renderChallengeFrames(facePhoto, steps, liveScene, (i) => times.push(onFrame(i)));
    return Promise.all(
      rendered.map((frame, i) =>
        encodeFrame({ ...frame, image: litByScreen(frame.image, times[i] ?? 0, lightColours) }),
      ),
    );
  };

  return {
    persona,
    documentType,
    documentPerson,
    facePerson,
    personalData: personalDataOf(record),
    photographSide,
    captureFrames,
  };
}
