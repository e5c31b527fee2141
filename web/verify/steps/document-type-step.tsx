// Step 2: the document type, among the tenant's allowed types (interface §1).
import { useState } from 'preact/hooks';
import type { DocumentType } from '../flow-api.ts';
import { errorText } from './error-text.ts';
import type { StepProps } from './step-props.ts';

export function DocumentTypeStep({
  api,
  t,
  language,
  state,
  onApiError,
  onDone,
  onUseChip,
}: StepProps & { onDone(): void; onUseChip?: () => void }) {
  const [choice, setChoice] = useState<DocumentType | null>(state.documentType);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!choice) return;
    setBusy(true);
    setError(null);
    try {
      // Choosing the same type again would drop the pictures already taken: skip the call.
      if (choice !== state.documentType) await api.chooseDocumentType(choice);
      onDone();
    } catch (e) {
      onApiError(e);
      setError(errorText(e, language, t));
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h1>{t('docType.title')}</h1>
      <fieldset class="choices">
        <legend class="visually-hidden">{t('docType.legend')}</legend>
        {state.allowedDocumentTypes.map((type) => (
          <label class={`choice${choice === type ? ' selected' : ''}`} key={type}>
            <input
              type="radio"
              name="documentType"
              value={type}
              checked={choice === type}
              onChange={() => setChoice(type)}
            />
            <span>{t(`docType.${type}`)}</span>
          </label>
        ))}
      </fieldset>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={!choice || busy}>
        {t('docType.submit')}
      </button>
      {onUseChip && (
        <button type="button" class="secondary" onClick={onUseChip}>
          {t('docType.useChip')}
        </button>
      )}
    </form>
  );
}
