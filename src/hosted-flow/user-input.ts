// The personal data form (interface §2.3; issue 5 item 2): names, kana (hiragana or katakana
// accepted, stored as full-width katakana), a real birth date, an address.
import { type Static, Type } from '@sinclair/typebox';
import { isCalendarDate, isFullWidthKatakana, toFullWidthKatakana } from '../japanese/index.ts';
import { AppError } from '../platform/http/app-error.ts';

const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';
const Field = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: NO_CONTROL_CHARACTERS });

export const UserInputBody = Type.Object(
  {
    lastName: Field(100),
    firstName: Field(100),
    lastNameKana: Field(100),
    firstNameKana: Field(100),
    birthDate: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    address: Field(300),
  },
  { additionalProperties: false },
);
export type UserInput = Static<typeof UserInputBody>;

export const userInputContext = (sessionId: string) => `verification_sessions.user_input:${sessionId}`;

/** Trimmed, kana as full-width katakana; throws ValidationFailed with per-field details. */
export function normalizeUserInput(body: UserInput, today: Date): UserInput {
  const details: { path: string; message: string }[] = [];
  const trimmed = (path: keyof UserInput) => {
    const value = body[path].trim().replace(/\s+/gu, ' ');
    if (value === '') details.push({ path: `/${path}`, message: 'must not be empty' });
    return value;
  };
  const kana = (path: 'lastNameKana' | 'firstNameKana') => {
    const value = toFullWidthKatakana(trimmed(path));
    if (value !== '' && !isFullWidthKatakana(value)) {
      details.push({ path: `/${path}`, message: 'must be written in hiragana or katakana' });
    }
    return value;
  };
  const birthDate = body.birthDate;
  const [year, month, day] = birthDate.split('-').map(Number) as [number, number, number];
  if (!isCalendarDate(year, month, day)) {
    details.push({ path: '/birthDate', message: 'must be a real date (YYYY-MM-DD)' });
  } else if (birthDate > today.toISOString().slice(0, 10) || birthDate < '1900-01-01') {
    details.push({ path: '/birthDate', message: 'must be a date between 1900-01-01 and today' });
  }
  const result: UserInput = {
    lastName: trimmed('lastName'),
    firstName: trimmed('firstName'),
    lastNameKana: kana('lastNameKana'),
    firstNameKana: kana('firstNameKana'),
    birthDate,
    address: trimmed('address'),
  };
  if (details.length > 0) {
    throw new AppError(
      'ValidationFailed',
      `The request is not valid: ${details[0]?.path} ${details[0]?.message}`,
      details,
    );
  }
  return result;
}
