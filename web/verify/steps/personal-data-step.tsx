// Step 6: personal data (interface §2.5): labelled inputs, the server's errors shown next to the
// field they concern (details[].path = "/birthDate", …). Only the fields the tenant requires
// (state.requiredUserInputFields) are marked and checked as required; the others may stay empty.
// The kana fields say why a reading is asked, and for a name in Latin letters (a residence card's,
// a foreign passport's) suggest its katakana, which the person takes with one tap and may correct.
import { useState } from 'preact/hooks';
import { latinNameToKatakana } from '../../../src/hosted-flow/latin-name-kana.ts';
import { FlowApiError, type PersonalData } from '../flow-api.ts';
import type { MessageKey } from '../i18n.ts';
import { errorText } from './error-text.ts';
import type { StepProps } from './step-props.ts';

const FIELDS: { name: keyof PersonalData; type: 'text' | 'date'; autocomplete: string; hint?: MessageKey }[] =
  [
    { name: 'lastName', type: 'text', autocomplete: 'family-name' },
    { name: 'firstName', type: 'text', autocomplete: 'given-name' },
    { name: 'lastNameKana', type: 'text', autocomplete: 'off', hint: 'personal.kanaHint' },
    { name: 'firstNameKana', type: 'text', autocomplete: 'off', hint: 'personal.firstKanaHint' },
    { name: 'birthDate', type: 'date', autocomplete: 'bday' },
    { name: 'address', type: 'text', autocomplete: 'street-address' },
  ];

function invalidMessage(name: keyof PersonalData): MessageKey {
  if (name === 'lastNameKana' || name === 'firstNameKana') return 'personal.invalid.kana';
  if (name === 'birthDate') return 'personal.invalid.birthDate';
  return 'personal.invalid.other';
}

/** The name field each kana field is the reading of. */
const READING_OF: Partial<Record<keyof PersonalData, keyof PersonalData>> = {
  lastNameKana: 'lastName',
  firstNameKana: 'firstName',
};

const EMPTY: Required<PersonalData> = {
  lastName: '',
  firstName: '',
  lastNameKana: '',
  firstNameKana: '',
  birthDate: '',
  address: '',
};

export function PersonalDataStep({
  api,
  t,
  language,
  state,
  onApiError,
  onDone,
}: StepProps & { onDone(): void }) {
  // What the user saved wins; before that, what the document was read to say (never kana: the
  // capture check reads none, and the form does not guess a reading from kanji).
  const suggestion = state.personalData ? {} : (state.documentReading ?? {});
  const [values, setValues] = useState<Required<PersonalData>>({
    ...EMPTY,
    ...suggestion,
    ...state.personalData,
  });
  const isSuggested = (name: keyof PersonalData) =>
    name in suggestion && values[name] === suggestion[name as keyof typeof suggestion];
  const hasSuggestion = Object.keys(suggestion).length > 0;
  const isRequired = (name: keyof PersonalData) => state.requiredUserInputFields.includes(name);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof PersonalData, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const missing = Object.fromEntries(
      FIELDS.filter((f) => isRequired(f.name) && !values[f.name].trim()).map((f) => [
        f.name,
        t('personal.required'),
      ]),
    );
    setFieldErrors(missing);
    if (Object.keys(missing).length) {
      document.getElementById(`field-${Object.keys(missing)[0]}`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.savePersonalData(values);
      onDone();
    } catch (e) {
      onApiError(e);
      if (e instanceof FlowApiError && e.details.length) {
        const perField: Partial<Record<keyof PersonalData, string>> = {};
        for (const d of e.details) {
          const name = d.path.replace(/^\/(body\/)?/, '').split('/')[0] as keyof PersonalData;
          // The server's detail text is English; the field's own message is in the user's language.
          if (FIELDS.some((f) => f.name === name)) perField[name] = t(invalidMessage(name));
        }
        setFieldErrors(perField);
        const first = Object.keys(perField)[0];
        if (first) document.getElementById(`field-${first}`)?.focus();
      }
      setError(errorText(e, language, t));
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} noValidate>
      <h1>{t('personal.title')}</h1>
      <p class="hint">{t('personal.hint')}</p>
      {hasSuggestion && (
        <p class="notice" id="prefill-notice">
          {t('personal.prefilled')}
        </p>
      )}
      {FIELDS.map((field) => {
        const id = `field-${field.name}`;
        const problem = fieldErrors[field.name];
        const readingOf = READING_OF[field.name];
        const source = readingOf ? values[readingOf].trim() : '';
        const suggested = readingOf ? latinNameToKatakana(source) : '';
        const offer = suggested !== '' && values[field.name] !== suggested;
        const describedBy = [
          field.hint ? `${id}-hint` : '',
          readingOf ? 'kana-why' : '',
          offer ? `${id}-suggestion` : '',
          problem ? `${id}-error` : '',
        ]
          .filter(Boolean)
          .join(' ');
        return (
          <div class="field" key={field.name}>
            <label for={id}>
              <span id={`${id}-label`}>{t(`personal.${field.name}`)}</span>
              {/* For the eye only: the input's name is the span above, and `required` says the rest. */}
              {isRequired(field.name) && <span aria-hidden="true"> *</span>}
              {isSuggested(field.name) && <span class="from-document">{t('personal.fromDocument')}</span>}
            </label>
            {field.name === 'lastNameKana' && (
              <p class="hint" id="kana-why">
                {t('personal.kanaWhy')}
              </p>
            )}
            {field.hint && (
              <p class="hint" id={`${id}-hint`}>
                {t(field.hint)}
              </p>
            )}
            <input
              id={id}
              name={field.name}
              // Preact types "date" and "text" inputs apart; both take the same props here.
              type={field.type as 'text'}
              autocomplete={field.autocomplete}
              required={isRequired(field.name)}
              aria-required={isRequired(field.name) ? 'true' : undefined}
              aria-labelledby={`${id}-label`}
              value={values[field.name]}
              aria-invalid={problem ? 'true' : undefined}
              aria-describedby={describedBy || undefined}
              onInput={(e) => setValues({ ...values, [field.name]: e.currentTarget.value })}
            />
            {offer && (
              <p class="suggestion" id={`${id}-suggestion`}>
                <span>{t('personal.kanaSuggestion', { name: source, kana: suggested })}</span>{' '}
                <button
                  type="button"
                  class="link-button"
                  onClick={() => setValues({ ...values, [field.name]: suggested })}
                >
                  {t('personal.kanaUse', { kana: suggested })}
                </button>
              </p>
            )}
            {problem && (
              <p class="field-error" id={`${id}-error`}>
                {problem}
              </p>
            )}
          </div>
        );
      })}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {t('personal.submit')}
      </button>
    </form>
  );
}
