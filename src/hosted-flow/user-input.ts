// The personal data form (interface §2.3): names, kana (hiragana or katakana
// accepted, stored as full-width katakana), a real birth date, an address. A tenant chooses which
// of them are required (settings.requiredUserInputFields, all six by default); an optional field
// may be left empty, and is then not stored, but when given it is checked like a required one.
import { type Static, Type } from '@sinclair/typebox';
import { isCalendarDate, isFullWidthKatakana, toFullWidthKatakana } from '../japanese/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import { USER_INPUT_FIELDS, type UserInputField } from './user-input-fields.ts';

export { USER_INPUT_FIELDS, type UserInputField };

/** The tenant's required fields; all six when the setting is absent (an empty list requires none). */
export function requiredUserInputFields(tenantSettings: Record<string, unknown>): UserInputField[] {
  const configured = tenantSettings.requiredUserInputFields;
  if (!Array.isArray(configured)) return [...USER_INPUT_FIELDS];
  return USER_INPUT_FIELDS.filter((f) => configured.includes(f));
}

const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';
// Empty is allowed by the schema: whether a field may be empty depends on the tenant.
const Field = (maxLength: number) =>
  Type.Optional(Type.String({ maxLength, pattern: NO_CONTROL_CHARACTERS }));

export const UserInputBody = Type.Object(
  {
    lastName: Field(100),
    firstName: Field(100),
    lastNameKana: Field(100),
    firstNameKana: Field(100),
    birthDate: Type.Optional(Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' })),
    address: Field(300),
  },
  { additionalProperties: false },
);
/** As typed and as stored: a field left empty is absent. */
export type UserInput = Static<typeof UserInputBody>;

export const userInputContext = (sessionId: string) => `verification_sessions.user_input:${sessionId}`;

/**
 * Trimmed, kana as full-width katakana, empty optional fields left out; throws ValidationFailed
 * with per-field details (a required field left empty among them).
 */
export function normalizeUserInput(
  body: UserInput,
  required: readonly UserInputField[],
  today: Date,
): UserInput {
  const details: { path: string; message: string }[] = [];
  const result: UserInput = {};
  for (const field of USER_INPUT_FIELDS) {
    const value = (body[field] ?? '').trim().replace(/\s+/gu, ' ');
    if (value === '') {
      if (required.includes(field)) details.push({ path: `/${field}`, message: 'must not be empty' });
      continue;
    }
    const problem = fieldProblem(field, value, today);
    if (problem) details.push({ path: `/${field}`, message: problem });
    result[field] =
      field === 'lastNameKana' || field === 'firstNameKana' ? toFullWidthKatakana(value) : value;
  }
  if (details.length > 0) {
    throw new AppError(
      'ValidationFailed',
      `The request is not valid: ${details[0]?.path} ${details[0]?.message}`,
      details,
    );
  }
  return result;
}

function fieldProblem(field: UserInputField, value: string, today: Date): string | undefined {
  if (field === 'lastNameKana' || field === 'firstNameKana') {
    return isFullWidthKatakana(toFullWidthKatakana(value))
      ? undefined
      : 'must be written in hiragana or katakana';
  }
  if (field !== 'birthDate') return undefined;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  if (!isCalendarDate(year, month, day)) return 'must be a real date (YYYY-MM-DD)';
  if (value > today.toISOString().slice(0, 10) || value < '1900-01-01') {
    return 'must be a date between 1900-01-01 and today';
  }
  return undefined;
}
