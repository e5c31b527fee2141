// How the hosted flow names the tenant to its end users: display name, accent colour (the server
// refuses one white text cannot be read on, saying the ratio) and logo (checked by content on the
// server, served from the service's own origin). Saved apart from the rest of the settings.
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { ErrorText, Field, useLoad } from '../ui.tsx';

type Settings = Record<string, unknown> & { displayName?: string; accentColor?: string };

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function FlowBranding({ tenantId }: { tenantId: string }) {
  const { api, t } = useConsole();
  const path = api.tenantPath(tenantId, 'settings');
  const { data, error } = useLoad(() => api.get<{ settings: Settings }>(path), [path]);
  const [name, setName] = useState('');
  const [colour, setColour] = useState('');
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [logoUrl, setLogoUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!data) return;
    setName(data.settings.displayName ?? '');
    setColour(data.settings.accentColor ?? '');
  }, [data]);
  if (error) return <ErrorText error={error} />;
  if (!data) return null;

  const save = async (event: Event) => {
    event.preventDefault();
    setSaveError(null);
    setSaved(null);
    try {
      // The latest settings, so that this form changes only its two fields.
      const current = (await api.get<{ settings: Settings }>(path)).settings;
      await api.put(path, {
        settings: { ...current, displayName: name.trim() || null, accentColor: colour.trim() || null },
      });
      setSaved(t('common.saved'));
    } catch (failure) {
      setSaveError(failure);
    }
  };
  const upload = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setSaveError(null);
    setSaved(null);
    try {
      const answer = await api.put<{ logoUrl: string | null }>(api.tenantPath(tenantId, 'logo'), {
        image: await base64Of(file),
      });
      setLogoUrl(answer.logoUrl);
      setSaved(t('common.saved'));
    } catch (failure) {
      setSaveError(failure);
    }
  };

  return (
    <section>
      <h2>{t('branding.title')}</h2>
      <p>{t('branding.lead')}</p>
      <form class="settings" onSubmit={save} noValidate>
        <Field id="branding-name" label={t('branding.displayName')} error={null}>
          <input
            id="branding-name"
            maxLength={60}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <Field id="branding-colour" label={t('branding.accentColor')} error={null}>
          <input
            id="branding-colour"
            placeholder="#0b57d0"
            value={colour}
            onInput={(e) => setColour(e.currentTarget.value)}
          />
        </Field>
        <button type="submit">{t('branding.save')}</button>
      </form>
      <Field id="branding-logo" label={t('branding.logo')} error={null}>
        <input id="branding-logo" type="file" accept="image/png,image/jpeg,image/webp" onChange={upload} />
      </Field>
      {logoUrl ? <img class="logo-preview" src={logoUrl} alt={t('branding.logo')} /> : null}
      <ErrorText error={saveError} />
      {saved ? <p role="status">{saved}</p> : null}
    </section>
  );
}
