// The face photos every bundle is built from: ../shared/fixtures/faces/<person><n>.png
// (MIT, from face-api.js examples; see SOURCE.md there). Two files with the same prefix show the
// same person, so a document portrait and a selfie can be different photos of one person.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sex } from './identity.ts';

/** The fixtures folder beside the repository (repo/../shared/fixtures/faces). */
export function defaultFacesDir(): string {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  return path.resolve(repoRoot, '../shared/fixtures/faces');
}

export type FacePeople = Map<string, string[]>;

/** People and their photo files (absolute paths), both sorted so the order never depends on the disk. */
export function listFacePeople(dir: string): FacePeople {
  const people: FacePeople = new Map();
  if (!existsSync(dir)) {
    throw new Error(
      `no face photos at ${dir}: the fixtures live in ../shared/fixtures/faces beside the repository`,
    );
  }
  const files = readdirSync(dir)
    .filter((f) => /^[a-z]+\d+\.png$/.test(f))
    .sort((a, b) => a.localeCompare(b, 'en'));
  for (const file of files) {
    const person = file.replace(/\d+\.png$/, '');
    const list = people.get(person) ?? [];
    list.push(path.join(dir, file));
    people.set(person, list);
  }
  for (const [person, list] of people) if (list.length < 2) people.delete(person);
  if (people.size < 2) throw new Error(`need at least two people with two photos each in ${dir}`);
  return people;
}

// The fixture people's apparent sex, so that the made-up name matches the face.
const FIXTURE_SEX: Record<string, Sex> = {
  amy: 'F',
  bernadette: 'F',
  penny: 'F',
  howard: 'M',
  leonard: 'M',
  raj: 'M',
  sheldon: 'M',
  stuart: 'M',
};

export function sexOfPerson(person: string): Sex {
  return FIXTURE_SEX[person] ?? 'M';
}
