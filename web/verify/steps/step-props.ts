// What every step screen receives from the app.
import type { FlowApi, FlowState } from '../flow-api.ts';
import type { Language, Translate } from '../i18n.ts';

export interface StepProps {
  api: FlowApi;
  t: Translate;
  language: Language;
  state: FlowState;
  /** Session-level failures (expired, no cookie) end the flow with a page of their own. */
  onApiError(error: unknown): void;
}
