// String shapes shared by the console's route schemas. Control characters are refused up front:
// PostgreSQL cannot store NUL in text, and none belongs in an address, a name or an id.
import { Type } from '@sinclair/typebox';

const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

export const Text = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: NO_CONTROL_CHARACTERS });
