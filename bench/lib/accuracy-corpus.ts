// The accuracy corpus: one folder per bundle under a cache directory in
// os.tmpdir(), so a run generates only the bundles that are missing. Each synth sample is seeded
// by (seed, sample id) alone, so a bundle generated on its own is identical to the same bundle of
// a full `mimoto synth` run.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ATTACK_TYPES, DOCUMENT_TYPES, generateCorpus, MANIFEST_VERSION } from '../../src/synth/index.ts';

export const ACCURACY_SEED = 11;

export interface CorpusSample {
  id: string;
  person: string;
  documentType: string;
  attack: string | null;
  quality: 'clean' | 'typical' | 'poor';
  files: {
    front: string;
    back: string | null;
    selfie: string;
    frames: { file: string; t: number; pose: { name: string } }[];
  };
  truth: Record<string, unknown> & {
    lastName: string;
    firstName: string;
    birthDate: string;
    address: string;
    documentNumber: string;
    expiryDate: string;
    liveness: { challenge: string[] };
    attackDetails: Record<string, unknown> | null;
  };
}

/** Keyed by the manifest version too: bundles of an older generator are never reused. */
export const corpusRoot = (seed: number) =>
  path.join(os.tmpdir(), 'mimoto-accuracy', `seed-${seed}-v${MANIFEST_VERSION}`);

/**
 * Sample ids, stratified: round i holds the i-th genuine bundle of each document type and the i-th
 * bundle of each attack type, so a run cut short by a time budget still covers every scenario.
 */
export function accuracySampleIds(genuine: number, perAttack: number): string[] {
  const ids: string[] = [];
  const rounds = Math.max(Math.ceil(genuine / DOCUMENT_TYPES.length), perAttack);
  let genuineIds = 0;
  for (let i = 0; i < rounds; i++) {
    for (const type of DOCUMENT_TYPES) if (genuineIds++ < genuine) ids.push(`${type}-genuine-${i}`);
    if (i < perAttack) for (const attack of ATTACK_TYPES) ids.push(`${attack}-${i}`);
  }
  return ids;
}

const indexOf = (id: string) => Number(id.slice(id.lastIndexOf('-') + 1));

/** The bundle's folder: generated now if missing. Paths in the returned sample are absolute. */
export async function ensureSample(seed: number, id: string): Promise<CorpusSample> {
  const dir = path.join(corpusRoot(seed), id);
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(manifestFile))
    await generateCorpus({ outDir: dir, seed, count: indexOf(id) + 1, only: [id], video: false });
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { samples: CorpusSample[] };
  const sample = manifest.samples[0];
  if (!sample || sample.id !== id) throw new Error(`${manifestFile} does not hold ${id}`);
  const abs = (f: string) => path.join(dir, f);
  return {
    ...sample,
    files: {
      front: abs(sample.files.front),
      back: sample.files.back ? abs(sample.files.back) : null,
      selfie: abs(sample.files.selfie),
      frames: sample.files.frames.map((f) => ({ ...f, file: abs(f.file) })),
    },
  };
}
