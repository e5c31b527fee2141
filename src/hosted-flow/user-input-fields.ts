// The personal-data fields of the hosted flow, in form order. Pure data: the console's browser app
// imports it too (its settings page offers them as required or not).
export const USER_INPUT_FIELDS = [
  'lastName',
  'firstName',
  'lastNameKana',
  'firstNameKana',
  'birthDate',
  'address',
] as const;
export type UserInputField = (typeof USER_INPUT_FIELDS)[number];
