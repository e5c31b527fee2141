// Japanese surnames and given names as a dictionary knows them, to tell a name as printed from a
// misread one and to find where a name printed without a space (the passport's kanji line) ends
// its surname: 勅使河原ひかり is 勅使河原 / ひかり, 我如古幸子 is 我如古 / 幸子.
//
// The list is data with its own licence: models/jp-names (IPADIC's person names, NAIST; its
// README says where it comes from and how to rebuild it). It is no list of the project's own
// made-up people (src/synth draws from its own lists, some of whose names it lacks), so what it
// adds is measured, not fitted, on the validation corpus.
import { readFileSync } from 'node:fs';
import { foldKanjiVariants } from './kanji-variants.ts';

let lists: { surnames: ReadonlySet<string>; given: ReadonlySet<string> } | undefined;

function load(name: string): ReadonlySet<string> {
  const text = readFileSync(new URL(`../../models/jp-names/${name}`, import.meta.url), 'utf8');
  return new Set(
    text
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => foldKanjiVariants(l)),
  );
}

function names() {
  lists ??= { surnames: load('surnames.txt'), given: load('given-names.txt') };
  return lists;
}

// A registered variant (髙, 﨑, 𠮷) is the same name as its common form to the dictionary.
const key = (part: string) => foldKanjiVariants(part.normalize('NFKC'));

export function isKnownSurname(part: string): boolean {
  return part.length > 0 && names().surnames.has(key(part));
}

export function isKnownGivenName(part: string): boolean {
  return part.length > 0 && names().given.has(key(part));
}

/** Lexicographic: the first rank that differs decides. */
function outranks(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}

/**
 * Where a name written without a space splits into surname and given name, by the dictionary:
 * a cut whose parts it knows both of (the longest surname among such), else the cut whose one
 * known part is longest (神奈川花子: 花子 over 神; 長曾我部菜々子: 菜々子 over 長), nearest the usual
 * two-character surname on a tie; undefined when it knows no part of any cut.
 */
export function splitByKnownNames(
  name: string,
): { lastName: string; firstName: string; known: 1 | 2 } | undefined {
  const chars = [...name];
  const usual = chars.length <= 2 ? 1 : 2;
  let best: { lastName: string; firstName: string; known: 1 | 2; rank: number[] } | undefined;
  for (let cut = 1; cut < chars.length; cut++) {
    const lastName = chars.slice(0, cut).join('');
    const firstName = chars.slice(cut).join('');
    const surname = isKnownSurname(lastName);
    const given = isKnownGivenName(firstName);
    if (!surname && !given) continue;
    const known = surname && given ? 2 : 1;
    const knownLength = (surname ? cut : 0) + (given ? chars.length - cut : 0);
    // Both known: the longest surname. One known: the longest known part, then the usual cut.
    const rank = known === 2 ? [2, cut, 0] : [1, knownLength, -Math.abs(cut - usual)];
    if (!best || outranks(rank, best.rank)) best = { lastName, firstName, known, rank };
  }
  return best && { lastName: best.lastName, firstName: best.firstName, known: best.known };
}

/** Whether the dictionary knows both parts of some cut of the name's characters (the gap ignored). */
export function isKnownName(name: string): boolean {
  return splitByKnownNames(name.replace(/\s+/g, ''))?.known === 2;
}
