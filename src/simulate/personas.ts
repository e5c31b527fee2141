// The persona names and the identity a persona can be told to present, without the media
// generator behind them: the CLI checks its arguments before it loads the heavy modules.
import { DOCUMENT_TYPES, type DocumentType } from '../synth/document-record.ts';

export const PERSONAS = [
  'genuine',
  'impostor',
  'photo-attack',
  'blurry-document',
  'screen-replay',
  // The face attacks of face-attack-frames.ts.
  'video-replay',
  'face-injection',
] as const;
export type Persona = (typeof PERSONAS)[number];

export function isPersona(value: string): value is Persona {
  return (PERSONAS as readonly string[]).includes(value);
}

/**
 * Who the persona says it is, when told (`mimoto simulate --last-name … --birth-date …`): printed
 * on its document and typed into the form, so that a tenant's preRegisteredInfo can match it
 * (docs/api-reference.md §2.2). Unset fields keep the seed's made-up identity.
 */
export interface PresentedIdentity {
  lastName?: string;
  firstName?: string;
  lastNameKana?: string;
  firstNameKana?: string;
  birthDate?: string;
  address?: string;
}

const LATIN_NAME = /^[A-Za-z][A-Za-z '-]*$/;

export function isLatinName(name: string): boolean {
  return LATIN_NAME.test(name);
}

/**
 * The documents that print a presented name as written: a residence card is a foreign resident's
 * and prints the name in Latin letters; the others are a Japanese national's and print it in
 * kanji (a passport in its holder's signature, which is where OCR reads it). No name: all four.
 */
export function documentTypesForName(presented: PresentedIdentity): readonly DocumentType[] {
  const names = [presented.lastName, presented.firstName].filter((n): n is string => n !== undefined);
  if (names.length === 0) return DOCUMENT_TYPES;
  if (names.every(isLatinName)) return ['residence_card'];
  if (names.some(isLatinName)) return [];
  return DOCUMENT_TYPES.filter((t) => t !== 'residence_card');
}
