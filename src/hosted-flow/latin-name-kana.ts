// A katakana reading suggested for a name written in Latin letters (a residence card or a foreign
// passport prints the holder's name so), for the personal-data form: the kana field asks for the
// name's reading, which Japanese offices write in katakana for foreign names, and which a person
// new to Japan may not know how to spell. The letters are read as romaji where they are romaji
// (Hepburn, as Japanese names are spelt) and, where no vowel follows a consonant, as katakana
// writes foreign names (a lone consonant takes ウ, t/d take オ, a doubled one is ッ): "SMITH" →
// スミス, "NGUYEN VAN AN" → ングイェン・ヴァン・アン. It is a suggestion the person corrects (the
// usual spelling of a name is not derivable from its letters: Michael is マイケル, not ミカエル);
// pure, without a browser, so that the server's tests check it and the browser bundles it.

/** The vowels' own katakana, and the row of each consonant (the kana before each of a i u e o). */
const VOWELS: Record<string, string> = { a: 'ア', i: 'イ', u: 'ウ', e: 'エ', o: 'オ' };

/** Consonant (or cluster) + vowel, a i u e o in that order. */
const ROWS: Record<string, readonly [string, string, string, string, string]> = {
  k: ['カ', 'キ', 'ク', 'ケ', 'コ'],
  g: ['ガ', 'ギ', 'グ', 'ゲ', 'ゴ'],
  s: ['サ', 'シ', 'ス', 'セ', 'ソ'],
  z: ['ザ', 'ジ', 'ズ', 'ゼ', 'ゾ'],
  t: ['タ', 'ティ', 'トゥ', 'テ', 'ト'],
  d: ['ダ', 'ディ', 'ドゥ', 'デ', 'ド'],
  n: ['ナ', 'ニ', 'ヌ', 'ネ', 'ノ'],
  h: ['ハ', 'ヒ', 'フ', 'ヘ', 'ホ'],
  b: ['バ', 'ビ', 'ブ', 'ベ', 'ボ'],
  p: ['パ', 'ピ', 'プ', 'ペ', 'ポ'],
  m: ['マ', 'ミ', 'ム', 'メ', 'モ'],
  y: ['ヤ', 'イ', 'ユ', 'イェ', 'ヨ'],
  r: ['ラ', 'リ', 'ル', 'レ', 'ロ'],
  l: ['ラ', 'リ', 'ル', 'レ', 'ロ'],
  w: ['ワ', 'ウィ', 'ウ', 'ウェ', 'ウォ'],
  f: ['ファ', 'フィ', 'フ', 'フェ', 'フォ'],
  v: ['ヴァ', 'ヴィ', 'ヴ', 'ヴェ', 'ヴォ'],
  j: ['ジャ', 'ジ', 'ジュ', 'ジェ', 'ジョ'],
  q: ['カ', 'キ', 'ク', 'ケ', 'コ'],
  x: ['クサ', 'クシ', 'クス', 'クセ', 'クソ'],
  sh: ['シャ', 'シ', 'シュ', 'シェ', 'ショ'],
  ch: ['チャ', 'チ', 'チュ', 'チェ', 'チョ'],
  ts: ['ツァ', 'ツィ', 'ツ', 'ツェ', 'ツォ'],
  th: ['サ', 'シ', 'ス', 'セ', 'ソ'],
  ph: ['ファ', 'フィ', 'フ', 'フェ', 'フォ'],
  kh: ['カ', 'キ', 'ク', 'ケ', 'コ'],
  gh: ['ガ', 'ギ', 'グ', 'ゲ', 'ゴ'],
  // Romaji's palatal rows: kya キャ, ryo リョ, …; an English "y" between consonant and vowel reads so too.
  ky: ['キャ', 'キィ', 'キュ', 'キェ', 'キョ'],
  gy: ['ギャ', 'ギィ', 'ギュ', 'ギェ', 'ギョ'],
  ny: ['ニャ', 'ニィ', 'ニュ', 'ニェ', 'ニョ'],
  hy: ['ヒャ', 'ヒィ', 'ヒュ', 'ヒェ', 'ヒョ'],
  by: ['ビャ', 'ビィ', 'ビュ', 'ビェ', 'ビョ'],
  py: ['ピャ', 'ピィ', 'ピュ', 'ピェ', 'ピョ'],
  my: ['ミャ', 'ミィ', 'ミュ', 'ミェ', 'ミョ'],
  ry: ['リャ', 'リィ', 'リュ', 'リェ', 'リョ'],
  ly: ['リャ', 'リィ', 'リュ', 'リェ', 'リョ'],
};

/** A consonant no vowel follows, as katakana writes it in a foreign word. */
const LONE: Record<string, string> = {
  k: 'ク',
  g: 'グ',
  s: 'ス',
  z: 'ズ',
  t: 'ト',
  d: 'ド',
  b: 'ブ',
  p: 'プ',
  m: 'ム',
  r: 'ル',
  l: 'ル',
  f: 'フ',
  v: 'ヴ',
  j: 'ジ',
  q: 'ク',
  x: 'クス',
  w: 'ウ',
  y: 'イ',
  sh: 'シュ',
  ch: 'チ',
  ts: 'ツ',
  th: 'ス',
  ph: 'フ',
  kh: 'ク',
  gh: 'グ',
};

/** Syllables the rows spell otherwise: Kunrei's si (Hepburn shi, as in Simon) and hu (Hung). */
const HEPBURN: Record<string, string> = { si: 'シ', hu: 'フ' };

const VOWEL_ORDER = 'aiueo';
const isVowel = (c: string | undefined) => c !== undefined && VOWEL_ORDER.includes(c);

/** One word (letters only, lower case) in katakana. */
function wordToKatakana(word: string): string {
  let out = '';
  let i = 0;
  while (i < word.length) {
    const c = word[i] as string;
    if (isVowel(c)) {
      // A doubled vowel is one long one (romaji yuuki, oota; a foreign aa): the bar.
      out += word[i - 1] === c && out.length > 0 ? 'ー' : (VOWELS[c] as string);
      i++;
      continue;
    }
    // A doubled consonant is the small tsu ("ck" too: Patrick → パトリック), a doubled m the
    // moraic ン (Emma → エンマ); a doubled l or r is read once (Pierre → ピエレ).
    const next = word[i + 1];
    if (next === c && (c === 'l' || c === 'r' || c === 'y' || c === 'w' || c === 'h')) {
      i++;
      continue;
    }
    if (next === c && c === 'm') {
      out += 'ン';
      i++;
      continue;
    }
    if ((next === c && c !== 'n') || (c === 'c' && next === 'k')) {
      out += 'ッ';
      i++;
      continue;
    }
    // n: a syllable before a vowel or y (na, nya), else the moraic ン; "ng" ending a syllable is ン.
    if (c === 'n' && !isVowel(next) && next !== 'y') {
      out += 'ン';
      i += next === 'n' && !isVowel(word[i + 2]) ? 2 : next === 'g' && !isVowel(word[i + 2]) ? 2 : 1;
      continue;
    }
    // m before b, p or m reads ン, as romaji writes shinbun (Hepburn's shimbun).
    if (c === 'm' && (next === 'b' || next === 'p')) {
      out += 'ン';
      i++;
      continue;
    }
    // c reads ch before h, s before e, i, y (Garcia, Lucy) and k otherwise; an h no vowel
    // follows is silent (Sarah).
    const letter = c === 'c' ? (next === 'h' ? 'ch' : 'eiy'.includes(next ?? '') ? 's' : 'k') : c;
    if (letter === 'h' && !isVowel(next)) {
      i++;
      continue;
    }
    const pair = `${letter}${next ?? ''}`;
    const cluster = letter.length === 1 && ROWS[pair] !== undefined ? pair : letter;
    const used = c === 'c' && letter === 'ch' ? 2 : cluster.length;
    const after = word[i + used];
    // A consonant and a final y (or a y before a consonant) is the consonant's i: Lucy → ルシ.
    if (after === 'y' && !isVowel(word[i + used + 1]) && ROWS[cluster]) {
      out += (ROWS[cluster] as readonly string[])[1];
      i += used + 1;
      continue;
    }
    // th reads t before a vowel (Thomas, Vietnamese Thị) and s alone (Smith).
    const row = cluster === 'th' && isVowel(after) ? 't' : cluster;
    if (cluster === 'y' && !isVowel(after)) {
      out += 'イ';
      i++;
      continue;
    }
    if (isVowel(after)) {
      // ti and di stay ティ and ディ, tu トゥ: as foreign names are written (Tina, Tuan).
      const kana = ROWS[row];
      out += HEPBURN[`${row}${after}`] ?? (kana ? kana[VOWEL_ORDER.indexOf(after as string)] : '');
      i += used + 1;
      continue;
    }
    out += LONE[cluster] ?? '';
    i += used;
  }
  return out;
}

/**
 * The katakana suggested for a name written in Latin letters, its words joined with ・; empty when
 * the text holds no Latin letter (a name in kanji or kana is not guessed at: its reading is the
 * person's to give).
 */
export function latinNameToKatakana(name: string): string {
  // Accents dropped (José → jose, Nguyễn → nguyen), then only letters, word by word.
  const plain = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  if (!/[a-z]/.test(plain) || /[^a-z\s'’.,-]/.test(plain)) return '';
  return plain
    .split(/[\s,.-]+/)
    .map((w) => wordToKatakana(w.replace(/['’]/g, '')))
    .filter((w) => w.length > 0)
    .join('・');
}

/** Whether a name is written in Latin letters (the form suggests its reading only then). */
export const isLatinName = (name: string): boolean => latinNameToKatakana(name).length > 0;
