// All text of the app lives in messages/{ja,en}.json, so every screen reads in the user's
// language; this picks the language's string and fills {placeholders}.
import { type Language, makeTranslator } from '../common/translator.ts';
import en from './messages/en.json';
import ja from './messages/ja.json';

export type { Language };
export type MessageKey = keyof typeof en;

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export const translator = (language: Language): Translate => makeTranslator<MessageKey>({ ja, en }, language);
