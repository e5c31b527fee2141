// Small building blocks every screen uses: loading data, showing an error in the user's language,
// links that route inside the app, labelled form fields, dates, and a secret shown once.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ConsoleApiError } from './console-api.ts';
import { useConsole } from './console-context.ts';
import { type Language, lookup } from './i18n.ts';

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(() => {
    setError(null);
    return load().then(setData, setError);
  }, deps);
  useEffect(() => {
    reload();
  }, [reload]);
  return { data, error, reload };
}

export function errorText(error: unknown, language: Language): string {
  if (error instanceof ConsoleApiError) {
    return lookup(language, `error.${error.code}`) ?? (error.message || error.code);
  }
  return lookup(language, 'error.network') ?? String(error);
}

export function ErrorText({ error }: { error: unknown }) {
  const { language } = useConsole();
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorText(error, language)}
    </p>
  );
}

export function Link({
  href,
  children,
  ...rest
}: {
  href: string;
  children: ComponentChildren;
  class?: string;
}) {
  const { navigate } = useConsole();
  return (
    <a
      href={href}
      {...rest}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string | null;
  hint?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint ? (
        <small class="hint" id={`${id}-hint`}>
          {hint}
        </small>
      ) : null}
      {error ? (
        <small class="field-error" id={`${id}-error`}>
          {error}
        </small>
      ) : null}
    </div>
  );
}

/** aria props for an input whose Field may carry an error. */
export const describedBy = (id: string, error?: string | null) =>
  error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};

export function formatDate(value: string | null | undefined, language: Language): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}

/** A secret the server shows once (API key, webhook secret): selectable text and a warning. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  const { t } = useConsole();
  return (
    <div class="shown-once" role="status">
      <p>
        <strong>{label}</strong> — {t('common.shownOnce')}
      </p>
      <output class="secret" aria-label={label}>
        {value}
      </output>
    </div>
  );
}

/** The text for an enum value (status, role, reason…), falling back to the value itself. */
export function useLabel() {
  const { language } = useConsole();
  return (group: string, value: string | null | undefined) =>
    value ? (lookup(language, `${group}.${value}`) ?? value) : '—';
}

/**
 * Runs a button's request: clears the last error, keeps the new one for <ErrorText>, then runs
 * `after` (usually the page's reload) whether or not it failed. `run` resolves to true on success.
 */
export function useAction(after?: () => unknown) {
  const [error, setError] = useState<unknown>(null);
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    let ok = true;
    try {
      await action();
    } catch (failure) {
      setError(failure);
      ok = false;
    }
    await after?.();
    return ok;
  };
  return { run, error };
}
