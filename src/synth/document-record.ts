// What one identity document says: the person, its numbers and dates (docs/corpus.md "Documents").
import { licenceExpiryFor } from '../documents/index.ts';
import { prefectureShortName } from '../japanese/index.ts';
import {
  generateIssuedLicenceNumber,
  generateLicenceNumber,
  generateMyNumber,
  generatePassportNumber,
  generateResidenceCardNumber,
} from './document-numbers.ts';
import {
  createForeignIdentity,
  createJapaneseIdentity,
  type Identity,
  randomDateBetween,
  type Sex,
} from './identity.ts';
import { addDays, addYears, formatEraDate, type IsoDate, parseIsoDate } from './japanese-date.ts';
import { passportMrz } from './mrz.ts';
import type { Random } from './random.ts';

export const DOCUMENT_TYPES = ['drivers_license', 'my_number_card', 'residence_card', 'passport'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export function hasBackSide(documentType: DocumentType): boolean {
  return documentType !== 'passport';
}

export type DocumentRecord = {
  documentType: DocumentType;
  identity: Identity;
  documentNumber: string;
  issueDate: IsoDate;
  expiryDate: IsoDate;
  /** my_number_card only: printed on the back. */
  myNumber?: string;
  /** passport only: the two TD3 lines. */
  mrz?: [string, string];
  /** Issuing body as printed (text only, no emblem). */
  issuer: string;
  /** Other printed items of this document type (licence class, status of residence, ...). */
  details: Record<string, string>;
  /**
   * drivers_license only, when the holder has moved since issue: the address the front prints;
   * `identity.address` is the one the holder lives at now, the last of `addressChanges`.
   */
  addressAtIssue?: string;
  /**
   * drivers_license only: the changes of address the back's 備考 records, oldest first, each as
   * printed — `令和5年4月1日 新住所 鳥取市東町一丁目271番地 鳥取公委` (the receiving commission's
   * 記載要領; the prefecture left out for its own, or printed).
   */
  addressChanges?: { date: IsoDate; address: string; printed: string }[];
};

const PREFECTURE_OF_ADDRESS = /^(東京都|北海道|(?:京都|大阪)府|.{2,3}県)/;

function birthdayOnOrAfter(birthDate: IsoDate, from: IsoDate, years: number): IsoDate {
  // Licences and My Number cards expire around a birthday; pick the one `years` after issue.
  const { month, day } = parseIsoDate(birthDate);
  const issueYear = parseIsoDate(from).year + years;
  const d = Math.min(day, month === 2 ? 28 : day);
  return `${issueYear}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A licence's changes of address: the holder moved from `former[0]` (printed on the front) through
 * the rest to `current`, each move recorded on the back on a date after issue.
 */
function addressHistory(
  random: Random,
  current: string,
  former: readonly string[],
  issueDate: IsoDate,
  referenceDate: IsoDate,
): Pick<DocumentRecord, 'addressAtIssue' | 'addressChanges'> {
  const moves = [...former.slice(1, 3), current];
  const dates = moves
    .map(() => randomDateBetween(random, addDays(issueDate, 1), addDays(referenceDate, -1)))
    .sort();
  return {
    addressAtIssue: former[0],
    addressChanges: moves.map((address, i) => {
      const prefecture = PREFECTURE_OF_ADDRESS.exec(address)?.[1] ?? '';
      const printed = random.chance(0.7) ? address.slice(prefecture.length) : address;
      const date = dates[i] as IsoDate;
      return {
        date,
        address,
        printed: `${formatEraDate(date)} 新住所 ${printed} ${prefectureShortName(prefecture)}公委`,
      };
    }),
  };
}

/** Who a document of this type is issued to: residence cards go to foreign residents. */
export function createIdentityFor(
  random: Random,
  documentType: DocumentType,
  sex: Sex,
  referenceDate: IsoDate,
): Identity {
  return documentType === 'residence_card'
    ? createForeignIdentity(random, sex, referenceDate)
    : createJapaneseIdentity(random, sex, referenceDate);
}

/**
 * A genuine, valid-on-the-reference-date document for a new made-up person, or for `person` when
 * given (the simulator keeps one identity per face, as a real person has).
 */
export function createDocumentRecord(
  random: Random,
  documentType: DocumentType,
  sex: Sex,
  referenceDate: IsoDate,
  person?: Identity,
  options: {
    /** Licence numbers as issued, with their check digit (the validation corpus; default: the classic draw). */
    issuedLicenceNumbers?: boolean;
    /**
     * Licence only: where the holder lived before `identity.address`, since issue (oldest first):
     * the front prints the first, the back's 備考 each move after it (at most three rows).
     */
    formerAddresses?: readonly string[];
  } = {},
): DocumentRecord {
  const identity = person ?? createIdentityFor(random, documentType, sex, referenceDate);
  // Where the document was issued: for a licence holder who moved since, the address at issue.
  const issuedAt = options.formerAddresses?.[0] ?? identity.address;
  const prefecture = PREFECTURE_OF_ADDRESS.exec(issuedAt)?.[1] ?? '東京都';
  switch (documentType) {
    case 'drivers_license': {
      const issueDate = randomDateBetween(random, addYears(referenceDate, -4), addDays(referenceDate, -30));
      // Valid until one month after the fifth birthday after issue (道路交通法 第92条の2).
      const lastBirthdayYear = parseIsoDate(issueDate).year + 5;
      const expiryDate = licenceExpiryFor(identity.birthDate, lastBirthdayYear);
      const adult18 = addYears(identity.birthDate, 18);
      const firstYear = Math.min(
        parseIsoDate(issueDate).year,
        parseIsoDate(adult18).year + random.int(0, 10),
      );
      const colour = random.pick(['gold', 'blue', 'green'] as const);
      return {
        documentType,
        identity,
        documentNumber: options.issuedLicenceNumbers
          ? generateIssuedLicenceNumber(random, firstYear, prefecture)
          : generateLicenceNumber(random, firstYear),
        issueDate,
        expiryDate:
          expiryDate > referenceDate
            ? expiryDate
            : licenceExpiryFor(identity.birthDate, lastBirthdayYear + 5),
        issuer: `${prefecture}公安委員会`,
        // Forked only for a holder who moved: every other record draws as it always did.
        ...(options.formerAddresses?.length
          ? addressHistory(
              random.fork('moves'),
              identity.address,
              options.formerAddresses,
              issueDate,
              referenceDate,
            )
          : {}),
        details: {
          referenceNumber: random.digits(5),
          conditions: random.chance(0.35) ? '眼鏡等' : '',
          classes: random.pick(['普通', '普通 準中型', '中型 普通 大特', '普通 二輪']),
          bandColour: colour,
          firstLicensedYear: String(firstYear),
        },
      };
    }
    case 'my_number_card': {
      const issueDate = randomDateBetween(random, addYears(referenceDate, -6), addDays(referenceDate, -30));
      const myNumber = generateMyNumber(random);
      return {
        documentType,
        identity,
        documentNumber: myNumber,
        myNumber,
        issueDate,
        expiryDate: birthdayOnOrAfter(identity.birthDate, issueDate, 10),
        issuer: `${identity.address.replace(PREFECTURE_OF_ADDRESS, '').replace(/[区市町村].*$/, (m) => m[0] ?? '')}長`,
        details: {
          certificateExpiry: birthdayOnOrAfter(identity.birthDate, issueDate, 5),
          securityCode: random.digits(4),
        },
      };
    }
    case 'residence_card': {
      const years = random.pick([1, 3, 5]);
      const issueDate = randomDateBetween(
        random,
        addDays(addYears(referenceDate, -years), 60),
        addDays(referenceDate, -30),
      );
      return {
        documentType,
        identity,
        documentNumber: generateResidenceCardNumber(random),
        issueDate,
        expiryDate: addDays(addYears(issueDate, years), -1),
        issuer: '出入国在留管理庁長官',
        details: {
          status: random.pick([
            '技術・人文知識・国際業務',
            '留学',
            '永住者の配偶者等',
            '特定技能1号',
            '家族滞在',
          ]),
          periodYears: String(years),
          workPermission: random.pick(['在留資格に基づく就労活動のみ可', '就労制限なし', '就労不可']),
          permitType: random.pick(['在留期間更新許可', '在留資格変更許可', '上陸許可']),
          permitDate: addDays(issueDate, -random.int(0, 20)),
        },
      };
    }
    case 'passport': {
      const issueDate = randomDateBetween(random, addYears(referenceDate, -8), addDays(referenceDate, -30));
      const years = random.pick([5, 10]);
      const expiryDate = addDays(addYears(issueDate, years), -1);
      const passportNumber = generatePassportNumber(random);
      return {
        documentType,
        identity,
        documentNumber: passportNumber,
        issueDate,
        expiryDate: expiryDate > referenceDate ? expiryDate : addYears(expiryDate, 5),
        mrz: passportMrz({
          issuingState: 'JPN',
          lastName: identity.lastNameLatin,
          firstName: identity.firstNameLatin,
          passportNumber,
          nationality: 'JPN',
          birthDate: identity.birthDate,
          sex: identity.sex,
          expiryDate: expiryDate > referenceDate ? expiryDate : addYears(expiryDate, 5),
        }),
        issuer: 'MINISTRY OF FOREIGN AFFAIRS',
        details: { type: 'P', issuingState: 'JPN', validityYears: String(years) },
      };
    }
  }
}

/** Recompute the MRZ after a change to the passport record (e.g. an expiry date). */
export function withFreshMrz(record: DocumentRecord): DocumentRecord {
  if (record.documentType !== 'passport') return record;
  return {
    ...record,
    mrz: passportMrz({
      issuingState: 'JPN',
      lastName: record.identity.lastNameLatin,
      firstName: record.identity.firstNameLatin,
      passportNumber: record.documentNumber,
      nationality: 'JPN',
      birthDate: record.identity.birthDate,
      sex: record.identity.sex,
      expiryDate: record.expiryDate,
    }),
  };
}
