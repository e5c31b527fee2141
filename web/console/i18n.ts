// All text of the console lives in messages/{ja,en}.json (issue 8 item 5); this picks the
// language's string and fills {placeholders}. Server error codes have their own keys (error.<Code>),
// so an error reads in the user's language; the server's English message is the fallback.
import en from './messages/en.json';
import ja from './messages/ja.json';

export type Language = 'ja' | 'en';
export type MessageKey = keyof typeof en;

const MESSAGES: Record<Language, Record<string, string>> = { ja, en };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translator(language: Language): Translate {
  return (key, values) => {
    const text = MESSAGES[language][key] ?? MESSAGES.en[key] ?? key;
    return values ? text.replace(/\{(\w+)\}/g, (_m, name: string) => String(values[name] ?? '')) : text;
  };
}

/** The text for a dynamic key (an enum value, an error code), or null when there is none. */
export function lookup(language: Language, key: string): string | null {
  return MESSAGES[language][key] ?? MESSAGES.en[key] ?? null;
}
