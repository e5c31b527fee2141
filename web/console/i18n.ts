// All text of the console lives in messages/{ja,en}.json; this picks the
// language's string and fills {placeholders}. Server error codes have their own keys (error.<Code>),
// so an error reads in the user's language; the server's English message is the fallback.
import { type Language, type Messages, makeTranslator } from '../common/translator.ts';
import en from './messages/en.json';
import ja from './messages/ja.json';

export type { Language };
export type MessageKey = keyof typeof en;

const MESSAGES: Messages = { ja, en };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export const translator = (language: Language): Translate => makeTranslator<MessageKey>(MESSAGES, language);

/** The text for a dynamic key (an enum value, an error code), or null when there is none. */
export function lookup(language: Language, key: string): string | null {
  return MESSAGES[language][key] ?? MESSAGES.en[key] ?? null;
}
