// Made-up people: Japanese names with readings and romanisation, foreign names for residence
// cards, dates and addresses. Every value comes from the seeded generator; none is a real record.
import { addDays, addYears, type IsoDate, isoDate } from './japanese-date.ts';
import type { Random } from './random.ts';

export type Sex = 'M' | 'F';

export type Identity = {
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  /** Latin form as printed in passports (Hepburn, upper case). */
  lastNameLatin: string;
  firstNameLatin: string;
  sex: Sex;
  birthDate: IsoDate;
  nationality: string;
  /** ISO 3166-1 alpha-3 code used in MRZ lines. */
  nationalityCode: string;
  address: string;
  /** Prefecture in Latin letters (passport "registered domicile"). */
  prefectureLatin: string;
};

// [kanji, katakana, Hepburn]
const SURNAMES: [string, string, string][] = [
  ['佐藤', 'サトウ', 'SATO'],
  ['鈴木', 'スズキ', 'SUZUKI'],
  ['高橋', 'タカハシ', 'TAKAHASHI'],
  ['田中', 'タナカ', 'TANAKA'],
  ['伊藤', 'イトウ', 'ITO'],
  ['渡辺', 'ワタナベ', 'WATANABE'],
  ['山本', 'ヤマモト', 'YAMAMOTO'],
  ['中村', 'ナカムラ', 'NAKAMURA'],
  ['小林', 'コバヤシ', 'KOBAYASHI'],
  ['加藤', 'カトウ', 'KATO'],
  ['吉田', 'ヨシダ', 'YOSHIDA'],
  ['山田', 'ヤマダ', 'YAMADA'],
  ['松本', 'マツモト', 'MATSUMOTO'],
  ['井上', 'イノウエ', 'INOUE'],
  ['木村', 'キムラ', 'KIMURA'],
  ['清水', 'シミズ', 'SHIMIZU'],
  ['森田', 'モリタ', 'MORITA'],
  ['石川', 'イシカワ', 'ISHIKAWA'],
  ['長谷川', 'ハセガワ', 'HASEGAWA'],
  ['藤原', 'フジワラ', 'FUJIWARA'],
];

const GIVEN_NAMES: Record<Sex, [string, string, string][]> = {
  M: [
    ['太郎', 'タロウ', 'TARO'],
    ['健太', 'ケンタ', 'KENTA'],
    ['翔太', 'ショウタ', 'SHOTA'],
    ['大輔', 'ダイスケ', 'DAISUKE'],
    ['拓也', 'タクヤ', 'TAKUYA'],
    ['誠', 'マコト', 'MAKOTO'],
    ['浩二', 'コウジ', 'KOJI'],
    ['直樹', 'ナオキ', 'NAOKI'],
    ['隆', 'タカシ', 'TAKASHI'],
    ['悠斗', 'ユウト', 'YUTO'],
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
  ],
};

// Residence card holders: [Latin, katakana] surnames and given names, with nationality.
const FOREIGN_SURNAMES: [string, string][] = [
  ['SMITH', 'スミス'],
  ['JOHNSON', 'ジョンソン'],
  ['BROWN', 'ブラウン'],
  ['GARCIA', 'ガルシア'],
  ['MILLER', 'ミラー'],
  ['NGUYEN', 'グエン'],
  ['SANTOS', 'サントス'],
  ['KUMAR', 'クマール'],
];
const FOREIGN_GIVEN: Record<Sex, [string, string][]> = {
  M: [
    ['JOHN', 'ジョン'],
    ['DAVID', 'デイビッド'],
    ['MICHAEL', 'マイケル'],
    ['RAJ', 'ラジ'],
    ['CARLOS', 'カルロス'],
  ],
  F: [
    ['EMILY', 'エミリー'],
    ['SARAH', 'サラ'],
    ['MARIA', 'マリア'],
    ['ANNA', 'アンナ'],
    ['LINDA', 'リンダ'],
  ],
};
const NATIONALITIES: [string, string][] = [
  ['米国', 'USA'],
  ['英国', 'GBR'],
  ['フィリピン', 'PHL'],
  ['ベトナム', 'VNM'],
  ['ブラジル', 'BRA'],
  ['インド', 'IND'],
];

// [prefecture, Latin, cities with wards/towns]
const PLACES: [string, string, string[]][] = [
  ['東京都', 'TOKYO', ['千代田区神田小川町', '新宿区西新宿', '世田谷区桜新町', '練馬区豊玉北', '品川区大井']],
  ['神奈川県', 'KANAGAWA', ['横浜市中区山下町', '川崎市中原区小杉町', '相模原市南区相模大野']],
  ['大阪府', 'OSAKA', ['大阪市北区梅田', '堺市堺区大町東', '豊中市本町']],
  ['愛知県', 'AICHI', ['名古屋市中区栄', '豊田市元城町', '岡崎市康生通']],
  ['福岡県', 'FUKUOKA', ['福岡市博多区博多駅前', '北九州市小倉北区魚町']],
  ['北海道', 'HOKKAIDO', ['札幌市中央区北一条西', '旭川市三条通']],
  ['京都府', 'KYOTO', ['京都市左京区下鴨本町', '宇治市宇治']],
];

function randomAddress(random: Random): { address: string; prefectureLatin: string } {
  const [prefecture, latin, towns] = random.pick(PLACES);
  const town = random.pick(towns);
  const building = random.chance(0.4)
    ? ` ${random.pick(['コーポ', 'ハイツ', 'メゾン'])}${random.pick(['桜', '青葉', '緑'])}${random.int(1, 5)}0${random.int(1, 9)}`
    : '';
  return {
    address: `${prefecture}${town}${random.int(1, 5)}丁目${random.int(1, 30)}番${random.int(1, 20)}号${building}`,
    prefectureLatin: latin,
  };
}

function randomBirthDate(random: Random, referenceDate: IsoDate): IsoDate {
  // Adults aged 19 to 75 on the reference date.
  const start = addYears(referenceDate, -75);
  const span = 56 * 365;
  return addDays(start, random.int(0, span));
}

/** A Japanese national (licence, My Number card, passport). */
export function createJapaneseIdentity(random: Random, sex: Sex, referenceDate: IsoDate): Identity {
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
    birthDate: randomBirthDate(random, referenceDate),
    nationality: '日本',
    nationalityCode: 'JPN',
    ...randomAddress(random),
  };
}

/** A foreign resident (residence card): names are printed in Latin letters. */
export function createForeignIdentity(random: Random, sex: Sex, referenceDate: IsoDate): Identity {
  const [lastName, lastNameKana] = random.pick(FOREIGN_SURNAMES);
  const [firstName, firstNameKana] = random.pick(FOREIGN_GIVEN[sex]);
  const [nationality, nationalityCode] = random.pick(NATIONALITIES);
  return {
    lastName,
    firstName,
    lastNameKana,
    firstNameKana,
    lastNameLatin: lastName,
    firstNameLatin: firstName,
    sex,
    birthDate: randomBirthDate(random, referenceDate),
    nationality,
    nationalityCode,
    ...randomAddress(random),
  };
}

/** A date between `from` and `to` (inclusive), uniformly by day. */
export function randomDateBetween(random: Random, from: IsoDate, to: IsoDate): IsoDate {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  const days = Math.max(0, Math.round((b - a) / 86_400_000));
  return addDays(from, random.int(0, days));
}

export { isoDate };
