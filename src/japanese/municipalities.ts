// The municipalities (市区町村, with the 郡 before a town or village and the 政令指定都市's wards) of
// each prefecture, to restore a municipality name the OCR misread by one character (東京都二代田区 →
// 東京都千代田区): a kanji misread at one glyph that keeps the rest of a known name.
//
// The list is data with its own licence: models/jp-municipalities (its README says where it comes
// from and how to regenerate it).
import { readFileSync } from 'node:fs';

let byPrefecture: Readonly<Record<string, readonly string[]>> | undefined;

/** The municipalities of a prefecture as printed in an address (empty for an unknown prefecture). */
export function municipalitiesOf(prefecture: string): readonly string[] {
  byPrefecture ??= JSON.parse(
    readFileSync(new URL('../../models/jp-municipalities/municipalities.json', import.meta.url), 'utf8'),
  ) as Record<string, string[]>;
  return byPrefecture[prefecture] ?? [];
}

/**
 * The address with its municipality restored when the text after the prefecture begins with a
 * known municipality's name but for one character — one misread, or one dropped (東伯郡琴浦町 read
 * 東伯郡浦町: the jpn model loses a glyph between kanji now and then) — and with no other's:
 * unchanged when it begins with a known one already, when two fit, or when the name is too short
 * to tell (a misread in a name under three characters, a dropped glyph in one under four).
 */
export function restoreMunicipality(address: string, prefecture: string): string {
  if (!address.startsWith(prefecture)) return address;
  const rest = [...address.slice(prefecture.length)];
  const names = municipalitiesOf(prefecture);
  if (names.some((name) => rest.join('').startsWith(name))) return address;
  // Each fit: the name, and how many characters of the text it stands for.
  const fits: { name: string; read: number }[] = [];
  for (const name of names) {
    const chars = [...name];
    if (chars.length >= 3 && rest.length >= chars.length) {
      let differ = 0;
      for (let i = 0; i < chars.length; i++) if (chars[i] !== rest[i]) differ++;
      if (differ === 1) fits.push({ name, read: chars.length });
    }
    if (chars.length >= 4 && rest.length >= chars.length - 1) {
      const read = rest.slice(0, chars.length - 1).join('');
      if (chars.some((_, i) => chars.toSpliced(i, 1).join('') === read))
        fits.push({ name, read: chars.length - 1 });
    }
  }
  // A longer name that keeps two characters more of the text than any other fit is the likelier
  // (天草郡共北町: 天草郡苓北町 keeps five, 天草市 two); fits that keep as many are no guess.
  const kept = (f: { name: string }) => [...f.name].length - 1;
  const best = fits.toSorted((a, b) => kept(b) - kept(a))[0];
  if (!best || fits.some((f) => f.name !== best.name && kept(f) > kept(best) - 2)) return address;
  return prefecture + best.name + rest.slice(best.read).join('');
}

/**
 * Whether the address names a municipality of its prefecture where one is due (every domestic
 * address does: prefecture, then municipality). True when it begins with no listed prefecture
 * (a designated city printed alone, a specimen's 見本県): there is no list to hold it to.
 */
export function namesKnownMunicipality(address: string, prefectures: readonly string[]): boolean {
  const prefecture = prefectures.find((p) => address.startsWith(p));
  if (!prefecture) return true;
  const rest = address.slice(prefecture.length);
  return municipalitiesOf(prefecture).some((name) => rest.startsWith(name));
}

let allNames: Map<string, string[]> | undefined;

/**
 * The prefecture holding the municipality `text` begins with, when that municipality's name (three
 * characters or more) is known in one prefecture only; otherwise undefined.
 */
export function prefectureOfMunicipality(text: string, prefectures: readonly string[]): string | undefined {
  if (!allNames) {
    allNames = new Map();
    for (const p of prefectures)
      for (const name of municipalitiesOf(p)) allNames.set(name, [...(allNames.get(name) ?? []), p]);
  }
  const owners = new Set<string>();
  for (const [name, of] of allNames)
    if ([...name].length >= 3 && text.startsWith(name)) for (const p of of) owners.add(p);
  return owners.size === 1 ? [...owners][0] : undefined;
}

/**
 * An address whose prefecture was misread (橋賠県北九州市… for 福岡県北九州市…) with the prefecture
 * restored from the municipality after it (`prefectureOfMunicipality`); otherwise unchanged.
 */
export function restorePrefecture(address: string, prefectures: readonly string[]): string {
  const shaped = /^\p{Script=Han}{2,3}[都道府県]/u.exec(address);
  if (!shaped || prefectures.some((p) => address.startsWith(p))) return address;
  const rest = address.slice(shaped[0].length);
  const owner = prefectureOfMunicipality(rest, prefectures);
  return owner ? owner + rest : address;
}
