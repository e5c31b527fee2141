// The tenant's settings form (docs/console-api.md): thresholds, fraud sensitivity, document types,
// required fields, minimum age, retention, second review — validated by the server, whose errors
// show next to their fields; and the webhook secret's rotation (the new secret is shown once).
import { useEffect, useState } from 'preact/hooks';
import { DOCUMENT_TYPES } from '../../../src/hosted-flow/document-types.ts';
import { USER_INPUT_FIELDS } from '../../../src/hosted-flow/user-input-fields.ts';
import { ConsoleApiError } from '../console-api.ts';
import { useConsole } from '../console-context.ts';
import type { MessageKey } from '../i18n.ts';
import { describedBy, ErrorText, Field, ShownOnce, useLabel, useLoad } from '../ui.tsx';
import { FlowBranding } from './flow-branding.tsx';

interface Settings {
  faceSimilarityThreshold: number;
  ocrConfidenceThreshold: number;
  fraudSensitivity: 'low' | 'normal' | 'high';
  allowedDocumentTypes: string[];
  requiredUserInputFields: string[];
  minimumAge: number;
  retentionDays: number;
  secondReviewForRejectedApproval: boolean;
  webhookExpiredEvent?: boolean;
  thicknessCapture?: boolean;
  /** The methods sessions offer when the create request names none (docs/ic-chip.md). */
  verificationMethods: string[];
}

const VERIFICATION_METHODS = ['image', 'ic_chip'] as const;

function WebhookSecret({ tenantId }: { tenantId: string }) {
  const { api, t } = useConsole();
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const rotate = async () => {
    if (!window.confirm(t('secret.confirmRotate'))) return;
    setError(null);
    try {
      const answer = await api.post<{ webhookSecret: string }>(
        api.tenantPath(tenantId, 'webhook-secret/rotate'),
      );
      setSecret(answer.webhookSecret);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section>
      <h2>{t('secret.title')}</h2>
      <p>{t('secret.lead')}</p>
      <button type="button" onClick={rotate}>
        {t('secret.rotate')}
      </button>
      {secret ? <ShownOnce label={t('secret.new')} value={secret} /> : null}
      <ErrorText error={error} />
    </section>
  );
}

export function SettingsPage({ tenantId }: { tenantId: string }) {
  const { api, t } = useConsole();
  const label = useLabel();
  const path = api.tenantPath(tenantId, 'settings');
  const { data, error } = useLoad(() => api.get<{ settings: Settings }>(path), [path]);
  const [form, setForm] = useState<Settings | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (data) setForm(data.settings);
  }, [data]);

  if (error) return <ErrorText error={error} />;
  if (!form) return <p class="boot">{t('common.loading')}</p>;

  const fieldError = (field: keyof Settings) =>
    saveError instanceof ConsoleApiError ? saveError.fieldMessage(field) : null;
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };
  const toggle = (
    key: 'allowedDocumentTypes' | 'requiredUserInputFields' | 'verificationMethods',
    value: string,
  ) => set(key, form[key].includes(value) ? form[key].filter((v) => v !== value) : [...form[key], value]);
  // Numbers go to the server as typed (NaN becomes null), so its validation answers per field.
  const number = (key: keyof Settings, id: string, step: string) => (
    <Field id={id} label={t(`settings.${key}` as MessageKey)} error={fieldError(key)}>
      <input
        id={id}
        type="number"
        step={step}
        value={String(form[key])}
        onInput={(e) => set(key, e.currentTarget.valueAsNumber as never)}
        {...describedBy(id, fieldError(key))}
      />
    </Field>
  );
  const checkboxes = (
    key: 'allowedDocumentTypes' | 'requiredUserInputFields' | 'verificationMethods',
    values: readonly string[],
    group: string,
  ) => (
    <fieldset class={fieldError(key) ? 'invalid' : undefined}>
      <legend>{t(`settings.${key}` as MessageKey)}</legend>
      {values.map((value) => (
        <label key={value} class="choice">
          <input type="checkbox" checked={form[key].includes(value)} onChange={() => toggle(key, value)} />
          {label(group, value)}
        </label>
      ))}
      {fieldError(key) ? <small class="field-error">{fieldError(key)}</small> : null}
    </fieldset>
  );

  const save = async (event: Event) => {
    event.preventDefault();
    setSaveError(null);
    try {
      const numbers = (value: number) => (Number.isFinite(value) ? value : null);
      const answer = await api.put<{ settings: Settings }>(path, {
        settings: {
          ...form,
          faceSimilarityThreshold: numbers(form.faceSimilarityThreshold),
          ocrConfidenceThreshold: numbers(form.ocrConfidenceThreshold),
          minimumAge: numbers(form.minimumAge),
          retentionDays: numbers(form.retentionDays),
        },
      });
      setForm(answer.settings);
      setSaved(true);
    } catch (failure) {
      setSaveError(failure);
    }
  };

  return (
    <section>
      <h1>{t('settings.title')}</h1>
      <form class="settings" onSubmit={save} noValidate>
        {number('faceSimilarityThreshold', 'settings-face', '0.01')}
        {number('ocrConfidenceThreshold', 'settings-ocr', '0.01')}
        <Field
          id="settings-fraud"
          label={t('settings.fraudSensitivity')}
          error={fieldError('fraudSensitivity')}
        >
          <select
            id="settings-fraud"
            value={form.fraudSensitivity}
            onChange={(e) => set('fraudSensitivity', e.currentTarget.value as Settings['fraudSensitivity'])}
          >
            {(['low', 'normal', 'high'] as const).map((value) => (
              <option key={value} value={value}>
                {label('sensitivity', value)}
              </option>
            ))}
          </select>
        </Field>
        {checkboxes('allowedDocumentTypes', DOCUMENT_TYPES, 'documentType')}
        {checkboxes('requiredUserInputFields', USER_INPUT_FIELDS, 'field')}
        {checkboxes('verificationMethods', VERIFICATION_METHODS, 'verificationMethod')}
        {number('minimumAge', 'settings-age', '1')}
        {number('retentionDays', 'settings-retention', '1')}
        <label class="choice">
          <input
            type="checkbox"
            checked={form.secondReviewForRejectedApproval}
            onChange={(e) => set('secondReviewForRejectedApproval', e.currentTarget.checked)}
          />
          {t('settings.secondReviewForRejectedApproval')}
        </label>
        <label class="choice">
          <input
            type="checkbox"
            checked={form.webhookExpiredEvent === true}
            onChange={(e) => set('webhookExpiredEvent', e.currentTarget.checked)}
          />
          {t('settings.webhookExpiredEvent')}
        </label>
        <label class="choice">
          <input
            type="checkbox"
            checked={form.thicknessCapture === true}
            onChange={(e) => set('thicknessCapture', e.currentTarget.checked)}
          />
          {t('settings.thicknessCapture')}
        </label>
        <ErrorText error={saveError} />
        {saved ? <p role="status">{t('common.saved')}</p> : null}
        <button type="submit">{t('common.save')}</button>
      </form>
      <WebhookSecret tenantId={tenantId} />
      <FlowBranding tenantId={tenantId} />
    </section>
  );
}
