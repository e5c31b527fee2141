// `mimoto synth`: write bundles of document photos, selfies and liveness captures, genuine and
// attacked, with their truth in DIR/manifest.json (docs/corpus.md). Each sample draws from its own
// generator seeded by (seed, sample id), so the same arguments give the same bytes and any
// subset of samples can be regenerated alone.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { detectFaceMesh } from '../platform/ml/human.ts';
import {
  type CaptureParameters,
  drawCaptureParameters,
  QUALITIES,
  type Quality,
} from './capture-parameters.ts';
import {
  drawPastedPrint,
  drawPrintedCopyParameters,
  drawScreenReplayParameters,
  printCopy,
  showOnScreen,
} from './document-attacks.ts';
import { breakMyNumberCheckDigit } from './document-numbers.ts';
import {
  createDocumentRecord,
  DOCUMENT_TYPES,
  type DocumentRecord,
  type DocumentType,
  hasBackSide,
  withFreshMrz,
} from './document-record.ts';
import { composeFaceScene, type FaceSceneParameters } from './face-scene.ts';
import { cutsOfOnePhoto, facePeople, portraitPhoto, sexOfPerson } from './faces.ts';
import { addDays, addYears } from './japanese-date.ts';
import {
  captureLiveness,
  fitFaceScene,
  LIVENESS_STEPS,
  type LivenessRender,
  type LivenessStep,
  livenessTimeline,
  POSE_CONVENTION,
} from './liveness-capture.ts';
import { breakMrzCheckDigit } from './mrz.ts';
import { composeCapture, finishCapture, photographDocument } from './photograph-document.ts';
import { Random } from './random.ts';
import { type FlatImage, type PastedPrint, renderDocumentSide } from './render-document.ts';
import { drawSelfieParameters, renderSelfie } from './selfie.ts';
import { createWideIdentityFor } from './wide-identity.ts';

export const DOCUMENT_ATTACKS = [
  'screen_replay',
  'printed_copy',
  'portrait_swap',
  'text_edit',
  'expired',
  'bad_check_digit',
] as const;
export const FACE_ATTACKS = [
  'static_photo',
  'warped_photo',
  'replayed_frames',
  'face_swap_midway',
  'other_person',
] as const;
export const ATTACK_TYPES = [...DOCUMENT_ATTACKS, ...FACE_ATTACKS] as const;
export type AttackType = (typeof ATTACK_TYPES)[number];

/** The date the corpus is "taken" on: validity and expiry are judged against it, never the clock. */
export const REFERENCE_DATE = '2026-04-01';
/**
 * 2: the liveness stills include a frontal frame after every movement (the hosted flow's capture).
 * 3: the document portrait is a frontal photo, as ID photo rules require (it was any of the five).
 * 4: a portrait swap is a print of the attacker's face glued over the holder's portrait, and the
 *    attacker takes the selfie and the live check (it was the other face composited as issued, with
 *    the holder's selfie).
 * 5: the people are faces cut from the photos inside an installed npm package (faces.ts), in colour
 *    with hair, shoulders and room: photo 1 of each is the ID photo the document prints, the
 *    selfie and the live check use the others (it was greyscale face crops beside the repository).
 * 6: the licence prints its name spread over the 氏名 row and its number in digits that fill their
 *    pitch, as the issuer's specimen does; a live-check face whose cut runs large is moved back to
 *    fit the frame (fitFaceScene), as the simulator's is.
 */
export const MANIFEST_VERSION = 6;

export type CorpusOptions = {
  /** Who the documents are issued to: the classic short lists (default) or drawn widely (wide-identity.ts). */
  identities?: 'classic' | 'wide';
  outDir: string;
  seed: number;
  count: number;
  facesDir?: string;
  /** Write the .y4m video of each liveness capture (large: ~16 MB each). Default true. */
  video?: boolean;
  /** Width of document photos in px (height is 3/4 of it). Default 1280. */
  captureWidth?: number;
  /** Width of selfies in px (height 4/3 of it). Default 480. */
  selfieWidth?: number;
  /** Only these sample ids (for regenerating part of a corpus). */
  only?: readonly string[];
  referenceDate?: string;
  onSample?: (id: string, index: number, total: number) => void;
};

export type SampleFiles = {
  front: string;
  back: string | null;
  selfie: string;
  frames: {
    file: string;
    t: number;
    pose: { name: string; yaw: number; pitch: number; roll: number; scale: number };
  }[];
  video: string | null;
};

export type Sample = {
  id: string;
  person: string;
  documentType: DocumentType;
  attack: AttackType | null;
  quality: Quality;
  files: SampleFiles;
  truth: Record<string, unknown>;
};

export type Manifest = {
  generator: 'mimoto synth';
  version: number;
  seed: number;
  count: number;
  referenceDate: string;
  poseConvention: string;
  samples: Sample[];
};

type PlannedSample = { id: string; documentType: DocumentType; attack: AttackType | null; quality: Quality };

/** Document types an attack can apply to (a bad check digit needs a document that has one). */
function typesFor(attack: AttackType | null): readonly DocumentType[] {
  if (attack === 'bad_check_digit') return ['my_number_card', 'passport'];
  return DOCUMENT_TYPES;
}

/** Every sample of a corpus, in manifest order. */
export function planCorpus(count: number): PlannedSample[] {
  const plan: PlannedSample[] = [];
  DOCUMENT_TYPES.forEach((documentType, di) => {
    for (let i = 0; i < count; i++) {
      plan.push({
        id: `${documentType}-genuine-${i}`,
        documentType,
        attack: null,
        quality: QUALITIES[(i + di) % 3] as Quality,
      });
    }
  });
  ATTACK_TYPES.forEach((attack, ai) => {
    const types = typesFor(attack);
    for (let i = 0; i < count; i++) {
      const documentType = types[(i + ai) % types.length] as DocumentType;
      plan.push({ id: `${attack}-${i}`, documentType, attack, quality: QUALITIES[(i + ai) % 3] as Quality });
    }
  });
  return plan;
}

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function otherPerson(random: Random, people: string[], person: string): string {
  return random.pick(people.filter((p) => p !== person));
}

function truthOf(record: DocumentRecord): Record<string, unknown> {
  const { identity } = record;
  return {
    lastName: identity.lastName,
    firstName: identity.firstName,
    lastNameKana: identity.lastNameKana,
    firstNameKana: identity.firstNameKana,
    lastNameLatin: identity.lastNameLatin,
    firstNameLatin: identity.firstNameLatin,
    sex: identity.sex,
    nationality: identity.nationality,
    // Passports print no address, only the registered domicile (prefecture).
    address: record.documentType === 'passport' ? identity.prefectureLatin : identity.address,
    birthDate: identity.birthDate,
    documentNumber: record.documentNumber,
    issueDate: record.issueDate,
    expiryDate: record.expiryDate,
    ...(record.mrz ? { mrz: record.mrz } : {}),
    ...(record.myNumber ? { myNumber: record.myNumber } : {}),
    issuer: record.issuer,
    details: record.details,
  };
}

type RecordAttack = {
  front: DocumentRecord;
  back: DocumentRecord;
  editedField?: string;
  details: Record<string, unknown>;
};

/** Record-level document attacks: what the document says is changed before it is drawn. */
function attackRecord(
  random: Random,
  attack: AttackType | null,
  record: DocumentRecord,
  referenceDate: string,
): RecordAttack {
  switch (attack) {
    case 'expired': {
      const daysAgo = random.int(20, 900);
      const expiryDate = addDays(referenceDate, -daysAgo);
      const years =
        record.documentType === 'passport' ? 10 : record.documentType === 'my_number_card' ? 10 : 5;
      const expired = withFreshMrz({
        ...record,
        expiryDate,
        issueDate: addDays(addYears(expiryDate, -years), 1),
      });
      return { front: expired, back: expired, details: { expiredDaysBeforeReference: daysAgo } };
    }
    case 'bad_check_digit': {
      if (record.documentType === 'my_number_card' && record.myNumber) {
        const printed = breakMyNumberCheckDigit(record.myNumber, random);
        const broken = { ...record, myNumber: printed, documentNumber: printed };
        return {
          front: broken,
          back: broken,
          details: { field: 'myNumber', validValue: record.myNumber, printedValue: printed },
        };
      }
      if (record.mrz) {
        const mrz = breakMrzCheckDigit(record.mrz, random.int(0, 8));
        const broken = { ...record, mrz };
        return {
          front: broken,
          back: broken,
          details: {
            field: 'mrz',
            position: 'line 2, character 10 (passport number check digit)',
            validValue: record.mrz,
            printedValue: mrz,
          },
        };
      }
      throw new Error(`no check digit on ${record.documentType}`);
    }
    case 'text_edit': {
      const field = random.pick(['birthDate', 'name', 'address', 'expiryDate'] as const);
      const edited: DocumentRecord = { ...record, identity: { ...record.identity } };
      let original: unknown;
      let value: unknown;
      if (field === 'birthDate') {
        original = record.identity.birthDate;
        edited.identity.birthDate = addYears(record.identity.birthDate, random.pick([-12, -8, -5, 5, 8]));
        value = edited.identity.birthDate;
      } else if (field === 'expiryDate') {
        original = record.expiryDate;
        edited.expiryDate = addYears(record.expiryDate, random.pick([3, 5]));
        value = edited.expiryDate;
      } else if (field === 'name') {
        original = [record.identity.lastName, record.identity.lastNameLatin];
        const swap = createDocumentRecord(
          random,
          record.documentType,
          record.identity.sex,
          referenceDate,
        ).identity;
        edited.identity.lastName = swap.lastName;
        edited.identity.lastNameKana = swap.lastNameKana;
        edited.identity.lastNameLatin = swap.lastNameLatin;
        value = [swap.lastName, swap.lastNameLatin];
      } else {
        original = record.identity.address;
        const swap = createDocumentRecord(
          random,
          record.documentType,
          record.identity.sex,
          referenceDate,
        ).identity;
        edited.identity.address = swap.address;
        edited.identity.prefectureLatin = swap.prefectureLatin;
        value = record.documentType === 'passport' ? swap.prefectureLatin : swap.address;
        if (record.documentType === 'passport') original = record.identity.prefectureLatin;
      }
      // Only the front is edited; the back and the MRZ still say the original (a cross-check finds it).
      return {
        front: edited,
        back: record,
        editedField: field,
        details: { field, side: 'front', original, edited: value },
      };
    }
    default:
      return { front: record, back: record, details: {} };
  }
}

async function photographSide(
  random: Random,
  attack: AttackType | null,
  flat: FlatImage,
  params: CaptureParameters,
): Promise<{ jpeg: Buffer; details: Record<string, unknown> }> {
  if (attack === 'printed_copy') {
    const copy = drawPrintedCopyParameters(random);
    return { jpeg: await photographDocument(printCopy(flat, copy), params), details: { printedCopy: copy } };
  }
  if (attack === 'screen_replay') {
    // What the screen shows: an earlier clean photo of the genuine document.
    const shownParams = drawCaptureParameters(random, 'clean', 960);
    const shown = composeCapture(flat, shownParams);
    const screen = drawScreenReplayParameters(random);
    const object = showOnScreen(shown, screen);
    return {
      jpeg: await finishCapture(composeCapture(object, params), params),
      details: { shownPhoto: shownParams, screen },
    };
  }
  return { jpeg: await photographDocument(flat, params), details: {} };
}

function livenessScene(random: Random): FaceSceneParameters {
  const backgrounds: [FaceSceneParameters['background']['kind'], [number, number, number]][] = [
    ['stone', [205, 200, 190]],
    ['stone', [175, 185, 195]],
    ['cloth', [110, 120, 140]],
  ];
  const [kind, colour] = random.pick(backgrounds);
  return {
    width: 320,
    height: 240,
    // The photos are cut with hair and shoulders (faces.ts): at 1.45-1.6 the face is about 150 px
    // wide, as Human's depth (z) of the 3D face was measured for (face-model.ts); the frame shows
    // the head, the neck and the top of the shoulders in the photo's own room.
    faceWidth: Math.round(random.range(1.45, 1.6) * 1000) / 1000,
    centre: [
      Math.round(random.range(0.47, 0.53) * 1000) / 1000,
      // Eyes at 40-46 % of the frame's height (the cut puts them at 40 % of the photo's).
      Math.round(random.range(0.6, 0.66) * 1000) / 1000,
    ],
    background: { kind, colour, seed: random.int(0, 2 ** 30) },
  };
}

const FPS = 15;

// Photos whose head is turned far from the camera make poor 3D faces (the hidden side is
// stretched when frontalised), so selfies and liveness captures use the more frontal photos. An
// identity document prints a frontal photo by rule (passport and My Number photo standards), so
// its portrait is drawn from them too.
const MAX_SOURCE_ANGLE = 13;
const sourceAngles = new Map<string, Promise<number>>();
const PROBE_SCENE: FaceSceneParameters = {
  width: 320,
  height: 240,
  faceWidth: 1.5,
  centre: [0.5, 0.5],
  background: { kind: 'stone', colour: [200, 196, 188], seed: 7 },
};

function sourceAngle(photoFile: string): Promise<number> {
  let angle = sourceAngles.get(photoFile);
  if (!angle) {
    angle = composeFaceScene(photoFile, PROBE_SCENE)
      .then((scene) => detectFaceMesh({ ...scene, channels: 3 }))
      .then((mesh) => (mesh ? Math.hypot(mesh.rotation.yaw, mesh.rotation.pitch) : Number.POSITIVE_INFINITY));
    sourceAngles.set(photoFile, angle);
  }
  return angle;
}

/** The photos frontal enough for a portrait, a selfie and a liveness capture (at least the most frontal one). */
async function frontalPhotos(files: readonly string[]): Promise<string[]> {
  // Cuts of one photo were chosen frontal when cut (faces.ts); the ID cut stays the first.
  if (cutsOfOnePhoto(files)) return [...files];
  const angles: number[] = [];
  // One at a time: Human runs one detection at a time.
  for (const file of files) angles.push(await sourceAngle(file));
  const frontal = files.filter((_, i) => (angles[i] ?? Number.POSITIVE_INFINITY) <= MAX_SOURCE_ANGLE);
  if (frontal.length > 0) return frontal;
  const best = angles.indexOf(Math.min(...angles));
  return [files[best] as string];
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

async function generateSample(
  plan: PlannedSample,
  options: Required<
    Pick<CorpusOptions, 'outDir' | 'seed' | 'video' | 'captureWidth' | 'selfieWidth' | 'referenceDate'>
  > &
    Pick<CorpusOptions, 'identities'>,
  people: Map<string, string[]>,
): Promise<Sample> {
  const root = new Random(`${options.seed}:${plan.id}`);
  const names = [...people.keys()];
  const person = root.pick(names);
  const photos = people.get(person) ?? [];
  const portraitFile = portraitPhoto(await frontalPhotos(photos));
  const selfieFile = root.pick(await frontalPhotos(photos.filter((f) => f !== portraitFile)));
  const sex = sexOfPerson(person);
  const identity =
    options.identities === 'wide'
      ? createWideIdentityFor(root.fork('identity'), plan.documentType, sex, options.referenceDate)
      : undefined;
  const record = createDocumentRecord(
    root.fork('record'),
    plan.documentType,
    sex,
    options.referenceDate,
    identity,
  );
  const attacked = attackRecord(root.fork('attack'), plan.attack, record, options.referenceDate);
  const attackDetails: Record<string, unknown> = { ...attacked.details };

  // Whose face is where: the card always prints the holder's portrait (a swap glues a print over it).
  let facePhoto = selfieFile;
  let facePerson = person;
  // A portrait swap is done to get through the face match: the attacker glues a print of their own
  // face over the holder's portrait and takes the selfie and the live check themselves.
  let pastedPrint: PastedPrint | undefined;
  if (plan.attack === 'portrait_swap') {
    const attacker = otherPerson(root, names, person);
    const attackerPhotos = await frontalPhotos(people.get(attacker) ?? []);
    const printed = root.pick(attackerPhotos);
    pastedPrint = drawPastedPrint(root.fork('paste'), printed);
    facePerson = attacker;
    facePhoto = root.pick(await frontalPhotos((people.get(attacker) ?? []).filter((f) => f !== printed)));
    attackDetails.portraitPerson = attacker;
    attackDetails.portraitPhoto = path.basename(printed);
    attackDetails.paste = { ...pastedPrint, photoFile: path.basename(printed) };
  }
  if (plan.attack === 'other_person') {
    facePerson = otherPerson(root, names, person);
    facePhoto = root.pick(await frontalPhotos(people.get(facePerson) ?? []));
    attackDetails.facePerson = facePerson;
  }

  const dir = path.join(options.outDir, plan.id);
  await mkdir(path.join(dir, 'frames'), { recursive: true });
  const rel = (file: string) => path.posix.join(plan.id, file);

  // Document photos.
  const capture: Record<string, unknown> = {};
  const sides = hasBackSide(plan.documentType) ? (['front', 'back'] as const) : (['front'] as const);
  const files: SampleFiles = {
    front: rel('front.jpg'),
    back: null,
    selfie: rel('selfie.jpg'),
    frames: [],
    video: null,
  };
  for (const side of sides) {
    const sideRandom = root.fork(side);
    const sideRecord = side === 'front' ? attacked.front : attacked.back;
    const layoutOptions = {
      ...(side === 'front' && attacked.editedField ? { editedField: attacked.editedField } : {}),
      ...(side === 'front' && pastedPrint ? { pastedPrint } : {}),
    };
    const flat = await renderDocumentSide(sideRecord, side, portraitFile, layoutOptions);
    if (!flat) continue;
    const params = drawCaptureParameters(sideRandom, plan.quality, options.captureWidth);
    const { jpeg, details } = await photographSide(sideRandom, plan.attack, flat, params);
    await writeFile(path.join(dir, `${side}.jpg`), jpeg);
    capture[side] = { ...params, ...details };
    if (side === 'back') files.back = rel('back.jpg');
  }

  // Selfie.
  const selfieParams = drawSelfieParameters(root.fork('selfie'), options.selfieWidth);
  await writeFile(path.join(dir, 'selfie.jpg'), await renderSelfie(facePhoto, selfieParams));

  // Liveness capture.
  const liveRandom = root.fork('liveness');
  const challenge = shuffled(liveRandom, LIVENESS_STEPS);
  let order: LivenessStep[] = challenge;
  let render: LivenessRender = 'head_3d';
  let swap: { photoFile: string; at: number } | undefined;
  if (plan.attack === 'replayed_frames') {
    do order = shuffled(liveRandom, LIVENESS_STEPS);
    while (order.join() === challenge.join());
    attackDetails.recordedOrder = order;
  }
  if (plan.attack === 'static_photo') render = 'static_photo';
  if (plan.attack === 'warped_photo') render = 'flat_photo';
  if (plan.attack === 'face_swap_midway') {
    const other = otherPerson(liveRandom, names, person);
    const timeline = livenessTimeline(order);
    // Swap at the start of the third movement.
    const at = timeline[1 + 4 * 2]?.t ?? 5;
    swap = { photoFile: liveRandom.pick(await frontalPhotos(people.get(other) ?? [])), at };
    attackDetails.swapPerson = other;
    attackDetails.swapPhoto = path.basename(swap.photoFile);
    attackDetails.swapAt = at;
  }
  // A face whose cut runs large would fill the frame and its turns read small (fitFaceScene).
  const scene = await fitFaceScene(facePhoto, livenessScene(liveRandom));
  const noise = Math.round(liveRandom.range(1, 3) * 100) / 100;
  const live = await captureLiveness({
    photoFile: facePhoto,
    swap,
    render,
    order,
    scene,
    noise,
    noiseSeed: liveRandom.int(0, 2 ** 30),
    jpegQuality: 88,
    fps: FPS,
    video: options.video,
  });
  for (const [i, still] of live.stills.entries()) {
    const file = `frames/${String(i).padStart(2, '0')}.jpg`;
    await writeFile(path.join(dir, file), still.jpeg);
    files.frames.push({ file: rel(file), t: still.t, pose: { name: still.name, ...still.pose } });
  }
  if (live.video) {
    await writeFile(path.join(dir, 'capture.y4m'), Buffer.concat(live.video));
    files.video = rel('capture.y4m');
  }

  return {
    id: plan.id,
    person,
    documentType: plan.documentType,
    attack: plan.attack,
    quality: plan.quality,
    files,
    truth: {
      ...truthOf(attacked.front),
      portraitPhoto: path.basename(portraitFile),
      capture,
      selfie: { person: facePerson, photo: path.basename(facePhoto), ...selfieParams },
      liveness: {
        person: facePerson,
        photo: path.basename(facePhoto),
        render,
        challenge,
        shownOrder: order,
        fps: FPS,
        duration: live.duration,
        videoFrames: live.frameCount,
        width: scene.width,
        height: scene.height,
        scene,
        noise,
        sourcePose: {
          yaw: round2(live.sourcePose.yaw),
          pitch: round2(live.sourcePose.pitch),
          roll: round2(live.sourcePose.roll),
        },
        poseConvention: POSE_CONVENTION,
      },
      attackDetails: plan.attack ? attackDetails : null,
    },
  };
}

/** Generate the corpus into options.outDir and return its manifest (also written as manifest.json). */
export async function generateCorpus(options: CorpusOptions): Promise<Manifest> {
  const resolved = {
    outDir: options.outDir,
    seed: options.seed,
    video: options.video ?? true,
    captureWidth: options.captureWidth ?? 1280,
    selfieWidth: options.selfieWidth ?? 480,
    referenceDate: options.referenceDate ?? REFERENCE_DATE,
    ...(options.identities ? { identities: options.identities } : {}),
  };
  const people = await facePeople(options.facesDir);
  const plan = planCorpus(options.count).filter((p) => !options.only || options.only.includes(p.id));
  await mkdir(options.outDir, { recursive: true });
  const samples: Sample[] = [];
  for (const [i, p] of plan.entries()) {
    options.onSample?.(p.id, i, plan.length);
    samples.push(await generateSample(p, resolved, people));
  }
  const manifest: Manifest = {
    generator: 'mimoto synth',
    version: MANIFEST_VERSION,
    seed: options.seed,
    count: options.count,
    referenceDate: resolved.referenceDate,
    poseConvention: POSE_CONVENTION,
    samples,
  };
  await writeFile(path.join(options.outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
