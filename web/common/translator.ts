// The string lookup both browser apps (hosted flow, console) use over their own message files:
// the chosen language's text, English as the fallback, {placeholders} filled in.
export type Language = 'ja' | 'en';

export type Messages = Record<Language, Record<string, string>>;

export function makeTranslator<Key extends string>(messages: Messages, language: Language) {
  return (key: Key, values?: Record<string, string | number>): string => {
    const text = messages[language][key] ?? messages.en[key] ?? key;
    return values ? text.replace(/\{(\w+)\}/g, (_m, name: string) => String(values[name] ?? '')) : text;
  };
}
