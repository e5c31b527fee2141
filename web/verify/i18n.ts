// All text of the app lives in messages/{ja,en}.json (issue 5 item 6); this picks the language's
// string and fills {placeholders}.
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
