// What every screen needs: the API client, the signed-in user, the language and navigation.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ConsoleApi, ConsoleUser } from './console-api.ts';
import type { Language, Translate } from './i18n.ts';

export interface ConsoleContextValue {
  api: ConsoleApi;
  user: ConsoleUser | null;
  language: Language;
  t: Translate;
  navigate: (path: string) => void;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside ConsoleContext');
  return value;
}
