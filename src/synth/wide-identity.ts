// Made-up people drawn widely, for the OCR validation corpus (docs/corpus.md "Breadth"): surnames
// and given names from a long list with the variant kanji registries print (髙, 﨑, 邊, 齋, 𠮷) and
// long names; addresses in every prefecture's real municipalities (models/jp-municipalities) with
// 丁目/番地/号 and building names in the notations people write; birth years spread over 昭和 and
// 平成, the years with a 0 digit and 元年 drawn more often than their share, since those are
// where a reader drops a digit. None is a real record: every value comes from the seeded generator.
import { municipalitiesOf, PREFECTURES_LATIN } from '../japanese/index.ts';
import type { Identity, Sex } from './identity.ts';
import { addDays, type IsoDate, isoDate, parseIsoDate } from './japanese-date.ts';
import type { Random } from './random.ts';

// [kanji, katakana, Hepburn]: common surnames, their registry variants, and long or rare ones.
const SURNAMES: readonly [string, string, string][] = [
  ['佐藤', 'サトウ', 'SATO'],
  ['鈴木', 'スズキ', 'SUZUKI'],
  ['高橋', 'タカハシ', 'TAKAHASHI'],
  ['髙橋', 'タカハシ', 'TAKAHASHI'],
  ['田中', 'タナカ', 'TANAKA'],
  ['伊藤', 'イトウ', 'ITO'],
  ['渡辺', 'ワタナベ', 'WATANABE'],
  ['渡邊', 'ワタナベ', 'WATANABE'],
  ['渡邉', 'ワタナベ', 'WATANABE'],
  ['山本', 'ヤマモト', 'YAMAMOTO'],
  ['中村', 'ナカムラ', 'NAKAMURA'],
  ['小林', 'コバヤシ', 'KOBAYASHI'],
  ['加藤', 'カトウ', 'KATO'],
  ['吉田', 'ヨシダ', 'YOSHIDA'],
  ['𠮷田', 'ヨシダ', 'YOSHIDA'],
  ['山田', 'ヤマダ', 'YAMADA'],
  ['佐々木', 'ササキ', 'SASAKI'],
  ['山口', 'ヤマグチ', 'YAMAGUCHI'],
  ['松本', 'マツモト', 'MATSUMOTO'],
  ['井上', 'イノウエ', 'INOUE'],
  ['木村', 'キムラ', 'KIMURA'],
  ['林', 'ハヤシ', 'HAYASHI'],
  ['斎藤', 'サイトウ', 'SAITO'],
  ['齋藤', 'サイトウ', 'SAITO'],
  ['齊藤', 'サイトウ', 'SAITO'],
  ['清水', 'シミズ', 'SHIMIZU'],
  ['山崎', 'ヤマザキ', 'YAMAZAKI'],
  ['山﨑', 'ヤマザキ', 'YAMAZAKI'],
  ['森', 'モリ', 'MORI'],
  ['池田', 'イケダ', 'IKEDA'],
  ['橋本', 'ハシモト', 'HASHIMOTO'],
  ['阿部', 'アベ', 'ABE'],
  ['石川', 'イシカワ', 'ISHIKAWA'],
  ['前田', 'マエダ', 'MAEDA'],
  ['藤田', 'フジタ', 'FUJITA'],
  ['小川', 'オガワ', 'OGAWA'],
  ['後藤', 'ゴトウ', 'GOTO'],
  ['岡田', 'オカダ', 'OKADA'],
  ['長谷川', 'ハセガワ', 'HASEGAWA'],
  ['村上', 'ムラカミ', 'MURAKAMI'],
  ['近藤', 'コンドウ', 'KONDO'],
  ['石井', 'イシイ', 'ISHII'],
  ['坂本', 'サカモト', 'SAKAMOTO'],
  ['遠藤', 'エンドウ', 'ENDO'],
  ['青木', 'アオキ', 'AOKI'],
  ['藤井', 'フジイ', 'FUJII'],
  ['西村', 'ニシムラ', 'NISHIMURA'],
  ['福田', 'フクダ', 'FUKUDA'],
  ['太田', 'オオタ', 'OTA'],
  ['三浦', 'ミウラ', 'MIURA'],
  ['藤原', 'フジワラ', 'FUJIWARA'],
  ['岡本', 'オカモト', 'OKAMOTO'],
  ['松田', 'マツダ', 'MATSUDA'],
  ['中川', 'ナカガワ', 'NAKAGAWA'],
  ['中野', 'ナカノ', 'NAKANO'],
  ['原田', 'ハラダ', 'HARADA'],
  ['小野', 'オノ', 'ONO'],
  ['田村', 'タムラ', 'TAMURA'],
  ['竹内', 'タケウチ', 'TAKEUCHI'],
  ['金子', 'カネコ', 'KANEKO'],
  ['和田', 'ワダ', 'WADA'],
  ['中島', 'ナカジマ', 'NAKAJIMA'],
  ['石田', 'イシダ', 'ISHIDA'],
  ['上田', 'ウエダ', 'UEDA'],
  ['森田', 'モリタ', 'MORITA'],
  ['原', 'ハラ', 'HARA'],
  ['柴田', 'シバタ', 'SHIBATA'],
  ['酒井', 'サカイ', 'SAKAI'],
  ['工藤', 'クドウ', 'KUDO'],
  ['横山', 'ヨコヤマ', 'YOKOYAMA'],
  ['宮崎', 'ミヤザキ', 'MIYAZAKI'],
  ['宮﨑', 'ミヤザキ', 'MIYAZAKI'],
  ['宮本', 'ミヤモト', 'MIYAMOTO'],
  ['内田', 'ウチダ', 'UCHIDA'],
  ['高木', 'タカギ', 'TAKAGI'],
  ['髙木', 'タカギ', 'TAKAGI'],
  ['安藤', 'アンドウ', 'ANDO'],
  ['島田', 'シマダ', 'SHIMADA'],
  ['谷口', 'タニグチ', 'TANIGUCHI'],
  ['大野', 'オオノ', 'ONO'],
  ['丸山', 'マルヤマ', 'MARUYAMA'],
  ['今井', 'イマイ', 'IMAI'],
  ['河野', 'コウノ', 'KONO'],
  ['藤本', 'フジモト', 'FUJIMOTO'],
  ['村田', 'ムラタ', 'MURATA'],
  ['武田', 'タケダ', 'TAKEDA'],
  ['上野', 'ウエノ', 'UENO'],
  ['杉山', 'スギヤマ', 'SUGIYAMA'],
  ['増田', 'マスダ', 'MASUDA'],
  ['平野', 'ヒラノ', 'HIRANO'],
  ['大塚', 'オオツカ', 'OTSUKA'],
  ['千葉', 'チバ', 'CHIBA'],
  ['久保', 'クボ', 'KUBO'],
  ['松井', 'マツイ', 'MATSUI'],
  ['小島', 'コジマ', 'KOJIMA'],
  ['岩崎', 'イワサキ', 'IWASAKI'],
  ['桜井', 'サクライ', 'SAKURAI'],
  ['野口', 'ノグチ', 'NOGUCHI'],
  ['松尾', 'マツオ', 'MATSUO'],
  ['菊地', 'キクチ', 'KIKUCHI'],
  ['野村', 'ノムラ', 'NOMURA'],
  ['新井', 'アライ', 'ARAI'],
  ['濵田', 'ハマダ', 'HAMADA'],
  ['浜田', 'ハマダ', 'HAMADA'],
  ['德永', 'トクナガ', 'TOKUNAGA'],
  ['栁田', 'ヤナギダ', 'YANAGIDA'],
  ['柳沢', 'ヤナギサワ', 'YANAGISAWA'],
  ['五十嵐', 'イガラシ', 'IGARASHI'],
  ['小比類巻', 'コヒルイマキ', 'KOHIRUIMAKI'],
  ['勅使河原', 'テシガハラ', 'TESHIGAHARA'],
  ['五百旗頭', 'イオキベ', 'IOKIBE'],
  ['長曾我部', 'チョウソカベ', 'CHOSOKABE'],
  ['東海林', 'ショウジ', 'SHOJI'],
  ['我如古', 'ガネコ', 'GANEKO'],
  ['比嘉', 'ヒガ', 'HIGA'],
  ['知念', 'チネン', 'CHINEN'],
  ['一', 'ニノマエ', 'NINOMAE'],
];

const GIVEN_NAMES: Readonly<Record<Sex, readonly [string, string, string][]>> = {
  M: [
    ['太郎', 'タロウ', 'TARO'],
    ['一郎', 'イチロウ', 'ICHIRO'],
    ['健太', 'ケンタ', 'KENTA'],
    ['翔太', 'ショウタ', 'SHOTA'],
    ['大輔', 'ダイスケ', 'DAISUKE'],
    ['拓也', 'タクヤ', 'TAKUYA'],
    ['誠', 'マコト', 'MAKOTO'],
    ['浩二', 'コウジ', 'KOJI'],
    ['直樹', 'ナオキ', 'NAOKI'],
    ['隆', 'タカシ', 'TAKASHI'],
    ['悠斗', 'ユウト', 'YUTO'],
    ['蓮', 'レン', 'REN'],
    ['陽翔', 'ハルト', 'HARUTO'],
    ['湊', 'ミナト', 'MINATO'],
    ['大翔', 'ヒロト', 'HIROTO'],
    ['和也', 'カズヤ', 'KAZUYA'],
    ['健一', 'ケンイチ', 'KENICHI'],
    ['修', 'オサム', 'OSAMU'],
    ['茂', 'シゲル', 'SHIGERU'],
    ['博', 'ヒロシ', 'HIROSHI'],
    ['清', 'キヨシ', 'KIYOSHI'],
    ['勝', 'マサル', 'MASARU'],
    ['秀樹', 'ヒデキ', 'HIDEKI'],
    ['正人', 'マサト', 'MASATO'],
    ['達也', 'タツヤ', 'TATSUYA'],
    ['雄一', 'ユウイチ', 'YUICHI'],
    ['龍之介', 'リュウノスケ', 'RYUNOSUKE'],
    ['慎太郎', 'シンタロウ', 'SHINTARO'],
    ['健太郎', 'ケンタロウ', 'KENTARO'],
    ['與四郎', 'ヨシロウ', 'YOSHIRO'],
    ['富士夫', 'フジオ', 'FUJIO'],
    ['昭', 'アキラ', 'AKIRA'],
    ['徹', 'トオル', 'TORU'],
    ['剛', 'ツヨシ', 'TSUYOSHI'],
    ['崇', 'タカシ', 'TAKASHI'],
    ['亮', 'リョウ', 'RYO'],
    ['駿', 'シュン', 'SHUN'],
    ['樹', 'イツキ', 'ITSUKI'],
    ['晴彦', 'ハルヒコ', 'HARUHIKO'],
    ['義男', 'ヨシオ', 'YOSHIO'],
  ],
  F: [
    ['花子', 'ハナコ', 'HANAKO'],
    ['美咲', 'ミサキ', 'MISAKI'],
    ['陽子', 'ヨウコ', 'YOKO'],
    ['由美', 'ユミ', 'YUMI'],
    ['恵', 'メグミ', 'MEGUMI'],
    ['彩', 'アヤ', 'AYA'],
    ['真由美', 'マユミ', 'MAYUMI'],
    ['千尋', 'チヒロ', 'CHIHIRO'],
    ['結衣', 'ユイ', 'YUI'],
    ['優子', 'ユウコ', 'YUKO'],
    ['陽葵', 'ヒマリ', 'HIMARI'],
    ['凛', 'リン', 'RIN'],
    ['芽依', 'メイ', 'MEI'],
    ['葵', 'アオイ', 'AOI'],
    ['さくら', 'サクラ', 'SAKURA'],
    ['ひかり', 'ヒカリ', 'HIKARI'],
    ['あゆみ', 'アユミ', 'AYUMI'],
    ['京子', 'キョウコ', 'KYOKO'],
    ['幸子', 'サチコ', 'SACHIKO'],
    ['和子', 'カズコ', 'KAZUKO'],
    ['久美子', 'クミコ', 'KUMIKO'],
    ['千代子', 'チヨコ', 'CHIYOKO'],
    ['智子', 'トモコ', 'TOMOKO'],
    ['直美', 'ナオミ', 'NAOMI'],
    ['裕子', 'ユウコ', 'YUKO'],
    ['明美', 'アケミ', 'AKEMI'],
    ['麻衣', 'マイ', 'MAI'],
    ['愛', 'アイ', 'AI'],
    ['舞', 'マイ', 'MAI'],
    ['瞳', 'ヒトミ', 'HITOMI'],
    ['比呂美', 'ヒロミ', 'HIROMI'],
    ['佳奈子', 'カナコ', 'KANAKO'],
    ['美智子', 'ミチコ', 'MICHIKO'],
    ['綾', 'アヤ', 'AYA'],
    ['麗', 'レイ', 'REI'],
    ['詩織', 'シオリ', 'SHIORI'],
    ['菜々子', 'ナナコ', 'NANAKO'],
    ['響子', 'キョウコ', 'KYOKO'],
    ['聡子', 'サトコ', 'SATOKO'],
    ['ゆかり', 'ユカリ', 'YUKARI'],
  ],
};

// Residence card holders: names printed in Latin letters, short to long.
const FOREIGN_SURNAMES: readonly string[] = [
  'SMITH',
  'JOHNSON',
  'BROWN',
  'GARCIA',
  'MILLER',
  'NGUYEN',
  'TRAN',
  'SANTOS',
  'KUMAR',
  'SILVA',
  'KIM',
  'LEE',
  'PARK',
  'WANG',
  'LI',
  'CHEN',
  'REYES',
  'FERNANDES',
  'RODRIGUEZ',
  'SHRESTHA',
  'GURUNG',
  'WIJAYA',
  'PHAM',
  'OLIVEIRA',
  'MULLER',
  'SCHNEIDER',
  'ANDERSON',
  'KOWALSKI',
  'HERNANDEZ',
  'MARTINEZ',
  'BAHADUR',
  // Surnames of several words, printed with single spaces like the rest of the line: most begin
  // with a particle (the Philippines', Brazil's, the Netherlands'); a Brazilian double surname
  // does not, and nothing on the card marks where it ends.
  'DELA CRUZ',
  'DEL ROSARIO',
  'DE JESUS',
  'DOS SANTOS',
  'DA SILVA',
  'VAN DER BERG',
  'SILVA SANTOS',
];
const FOREIGN_GIVEN: Readonly<Record<Sex, readonly string[]>> = {
  M: [
    'JOHN',
    'DAVID',
    'MICHAEL',
    'RAJ',
    'CARLOS',
    'MINH',
    'JOSE',
    'WEI',
    'JUN',
    'ARJUN',
    'THOMAS',
    'LUCAS',
    'VAN NAM',
    'JUAN CARLOS',
    'MOHAMMED',
    'ALEXANDER',
  ],
  F: [
    'EMILY',
    'SARAH',
    'MARIA',
    'ANNA',
    'LINDA',
    'MAI',
    'JENNIFER',
    'SOFIA',
    'YAN',
    'PRIYA',
    'THI HUONG',
    'ANA CLARA',
    'ELIZABETH',
    'FATIMA',
    'SEO YEON',
    'CHRISTINE',
  ],
};
const NATIONALITIES: readonly [string, string][] = [
  ['米国', 'USA'],
  ['英国', 'GBR'],
  ['フィリピン', 'PHL'],
  ['ベトナム', 'VNM'],
  ['ブラジル', 'BRA'],
  ['インド', 'IND'],
  ['中国', 'CHN'],
  ['韓国', 'KOR'],
  ['ネパール', 'NPL'],
  ['インドネシア', 'IDN'],
  ['ドイツ', 'DEU'],
  ['ペルー', 'PER'],
];

// The 47 prefectures with their Latin names (the passport prints the latter): src/japanese.
export { PREFECTURES_LATIN };

// Town names (町名) as they recur across the country; the municipality list stops at 市区町村.
const TOWNS: readonly string[] = [
  '本町',
  '中央',
  '栄町',
  '緑町',
  '旭町',
  '東町',
  '西町',
  '南町',
  '北町',
  '寿町',
  '大手町',
  '桜木町',
  '若葉',
  '幸町',
  '元町',
  '新町',
  '錦町',
  '昭和町',
  '平和町',
  '泉町',
  '宮前',
  '駅前',
  '城東',
  '松原',
  '青葉台',
  '富士見',
  '日の出町',
  '八幡',
  '大字上野',
  '大字中島字西浦',
  '花園',
  '港町',
  '住吉',
  '高砂',
  '千代田',
  '川原',
  '曙町',
  '弥生町',
  '春日',
  '百合ケ丘',
];

const KANJI_DIGITS = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** 1–99 in kanji numerals as addresses write 丁目 (三丁目, 十二丁目). */
function kanjiNumber(n: number): string {
  if (n < 10) return KANJI_DIGITS[n] ?? '';
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  return `${tens === 1 ? '' : KANJI_DIGITS[tens]}十${ones === 0 ? '' : KANJI_DIGITS[ones]}`;
}

const BUILDING_NAMES: readonly string[] = [
  'コーポ桜',
  'ハイツ青葉',
  'メゾン緑',
  'グランドメゾン中央',
  'パークハウス',
  'レジデンス若葉',
  'サンハイツ',
  'ライオンズマンション',
  '第二松本荘',
  'シャトー富士見',
  'ロイヤルコート',
  'アーバンヒルズ',
  'グリーンパレス',
  'ベルメゾン',
  'ドミール',
  '藤ビル',
];

/** A street address after the town: 丁目/番地/号 in the notations cards print (as written on the form). */
function blockAndBuilding(random: Random): string {
  const chome = random.int(1, 12);
  const ban = random.int(1, 40);
  const go = random.int(1, 30);
  const banchi = random.int(1, 2999);
  const block = random.pick([
    () => `${chome}丁目${ban}番${go}号`,
    () => `${kanjiNumber(chome)}丁目${ban}番${go}号`,
    () => `${chome}丁目${ban}番地${go}`,
    () => `${banchi}番地`,
    () => `${banchi}番地${random.int(1, 20)}`,
    () => `${banchi}番地の${random.int(1, 20)}`,
    () => `${chome}-${ban}-${go}`,
    () => `${banchi}-${random.int(1, 20)}`,
  ])();
  if (!random.chance(0.45)) return block;
  const room = random.pick([
    () => `${random.int(1, 12)}0${random.int(1, 9)}`,
    () => `${random.int(1, 12)}0${random.int(1, 9)}号室`,
    () => `${random.pick(['A', 'B', 'C'])}-${random.int(1, 3)}0${random.int(1, 9)}`,
    () => `${random.int(2, 30)}階`,
  ])();
  const building = random.pick(BUILDING_NAMES);
  return random.chance(0.5) ? `${block} ${building}${room}` : `${block}${building}${room}`;
}

/** An address anywhere in Japan: a real municipality of any prefecture, a town, a block in any notation. */
export function wideAddress(random: Random): { address: string; prefectureLatin: string } {
  const [prefecture, latin] = random.pick(PREFECTURES_LATIN);
  const municipalities = municipalitiesOf(prefecture);
  const municipality = municipalities.length > 0 ? random.pick(municipalities) : '';
  const town = random.pick(TOWNS);
  return {
    address: `${prefecture}${municipality}${town}${blockAndBuilding(random)}`,
    prefectureLatin: latin,
  };
}

/**
 * A birth date of an adult aged 18 to 80 on the reference date; one in three falls in a year a
 * reader finds hard: an era year with a 0 digit (昭和30/40/50/60年, 平成10年) or 元年 (平成元年,
 * after 8 January 1989).
 */
function wideBirthDate(random: Random, referenceDate: IsoDate): IsoDate {
  const { year: refYear } = parseIsoDate(referenceDate);
  if (random.chance(0.33)) {
    const year = random.pick([1955, 1965, 1975, 1985, 1989, 1998]);
    const start = year === 1989 ? isoDate(1989, 1, 8) : isoDate(year, 1, 1);
    const days = year === 1989 ? 357 : 364;
    return addDays(start, random.int(0, days));
  }
  const start = isoDate(refYear - 80, 1, 1);
  return addDays(start, random.int(0, 62 * 365));
}

/** A Japanese national (licence, My Number card, passport), drawn from the wide lists. */
export function createWideJapaneseIdentity(random: Random, sex: Sex, referenceDate: IsoDate): Identity {
  const [lastName, lastNameKana, lastNameLatin] = random.pick(SURNAMES);
  const [firstName, firstNameKana, firstNameLatin] = random.pick(GIVEN_NAMES[sex]);
  return {
    lastName,
    firstName,
    lastNameKana,
    firstNameKana,
    lastNameLatin,
    firstNameLatin,
    sex,
    birthDate: wideBirthDate(random, referenceDate),
    nationality: '日本',
    nationalityCode: 'JPN',
    ...wideAddress(random),
  };
}

/** A foreign resident (residence card), drawn from the wide lists; names in Latin letters. */
export function createWideForeignIdentity(random: Random, sex: Sex, referenceDate: IsoDate): Identity {
  const lastName = random.pick(FOREIGN_SURNAMES);
  const firstName = random.pick(FOREIGN_GIVEN[sex]);
  const [nationality, nationalityCode] = random.pick(NATIONALITIES);
  return {
    lastName,
    firstName,
    lastNameKana: '',
    firstNameKana: '',
    lastNameLatin: lastName,
    firstNameLatin: firstName,
    sex,
    birthDate: wideBirthDate(random, referenceDate),
    nationality,
    nationalityCode,
    ...wideAddress(random),
  };
}

/** Who a document of this type is issued to, drawn widely. */
export function createWideIdentityFor(
  random: Random,
  documentType: string,
  sex: Sex,
  referenceDate: IsoDate,
): Identity {
  return documentType === 'residence_card'
    ? createWideForeignIdentity(random, sex, referenceDate)
    : createWideJapaneseIdentity(random, sex, referenceDate);
}
