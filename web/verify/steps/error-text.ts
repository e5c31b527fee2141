// The server's error message in the user's language, or the app's generic one.
import { FlowApiError } from '../flow-api.ts';
import type { Language, Translate } from '../i18n.ts';

export function errorText(error: unknown, language: Language, t: Translate): string {
  if (error instanceof FlowApiError) return error.textIn(language) ?? t('app.error');
  return t('app.error');
}
