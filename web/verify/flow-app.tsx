// The hosted flow's screens in order (docs/hosted-flow-api.md "Order of steps"): consent → document
// type → front (→ back) (→ the card tilted, when the tenant asks for its thickness) → live face
// check → personal data → review and submit → the tenant's callback. Each step is an entry of the
// browser's history (its name in history.state): Back goes to the step before, Forward returns, a
// reload stays on the step — a step the server's state does not yet allow falls back to the first
// one not done. Leaving the flow asks first (leave-guard.ts).
import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { FlowApi, FlowApiError, type FlowState } from './flow-api.ts';
import { type Language, translator } from './i18n.ts';
import { guardLeaving, leaveFlow } from './leave-guard.ts';
import { ChipStep } from './steps/chip-step.tsx';
import { ConsentStep } from './steps/consent-step.tsx';
import { DocumentCaptureStep } from './steps/document-capture-step.tsx';
import { DocumentTypeStep } from './steps/document-type-step.tsx';
import { FaceCheckStep } from './steps/face-check-step.tsx';
import { HandoffPanel } from './steps/handoff-panel.tsx';
import { PersonalDataStep } from './steps/personal-data-step.tsx';
import { ReviewStep } from './steps/review-step.tsx';

export type StepName =
  | 'consent'
  | 'chip'
  | 'documentType'
  | 'front'
  | 'back'
  | 'tilted'
  | 'face'
  | 'personal'
  | 'review';

/** The chip is the way: the only method offered, or the one the user has done. */
const chipPath = (state: FlowState) =>
  state.steps.chip === true ||
  (state.verificationMethods.length === 1 && state.verificationMethods[0] === 'ic_chip');

function stepsFor(state: FlowState, chosen: StepName | null = null): StepName[] {
  if (chipPath(state) || chosen === 'chip') return ['consent', 'chip', 'face', 'personal', 'review'];
  const hasBack = state.documentType !== 'passport';
  return [
    'consent',
    'documentType',
    'front',
    ...(hasBack ? (['back'] as const) : []),
    ...(state.steps.tilted !== null ? (['tilted'] as const) : []),
    'face',
    'personal',
    'review',
  ];
}

function firstOpenStep(state: FlowState): StepName {
  const s = state.steps;
  if (!s.consent) return 'consent';
  if (chipPath(state) && !s.chip) return 'chip';
  if (!chipPath(state) && !s.documentType) return 'documentType';
  if (!chipPath(state)) {
    if (!s.front) return 'front';
    if (s.back === false) return 'back';
    if (s.tilted === false) return 'tilted';
  }
  if (s.liveness.status !== 'success' && s.liveness.status !== 'failed') return 'face';
  if (!s.personalData) return 'personal';
  return 'review';
}

/** The step a history entry holds, when it holds one of ours. */
function stepInHistory(entry: unknown): StepName | null {
  const step = (entry as { mimotoStep?: unknown } | null)?.mimotoStep;
  return typeof step === 'string' ? (step as StepName) : null;
}

/** The step asked for, if the server's state allows it now; else the first step not done. */
function allowedStep(state: FlowState, wanted: StepName | null): StepName {
  const order = stepsFor(state);
  const open = firstOpenStep(state);
  // The face check, once ended, cannot be taken again: its entry leads on to what is open.
  const faceEnded = state.steps.liveness.status === 'success' || state.steps.liveness.status === 'failed';
  if (wanted === 'face' && faceEnded) return open;
  // With both methods, the chip may be chosen instead of the photos once consent is given.
  if (wanted === 'chip' && state.steps.chip !== null && state.steps.consent) return 'chip';
  const at = wanted ? order.indexOf(wanted) : -1;
  return at >= 0 && at <= order.indexOf(open) ? (wanted as StepName) : open;
}

const LANGUAGE_KEY = 'mimoto.language';

/** The browser's own choice (navigator.languages, in order): Japanese for ja, English otherwise. */
export function browserLanguage(): Language {
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const primary = tag?.toLowerCase().split('-')[0];
    if (primary === 'ja' || primary === 'en') return primary;
  }
  return 'en';
}

/** The switch, when the user used it in this tab (sessionStorage), else the browser's language. */
function initialLanguage(): Language {
  const chosen = sessionStorage.getItem(LANGUAGE_KEY);
  return chosen === 'ja' || chosen === 'en' ? chosen : browserLanguage();
}

export function FlowApp() {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const api = useMemo(() => new FlowApi(language), []);
  const [state, setState] = useState<FlowState | null>(null);
  const [step, setStep] = useState<StepName>('consent');
  const [handoff, setHandoff] = useState(false);
  const [fatal, setFatal] = useState<'expired' | 'noSession' | 'error' | null>(null);
  const t = translator(language);
  api.language = language;

  // Before paint, so the page never shows text in one language under the other's lang attribute
  // (screen readers pick the voice from it).
  useLayoutEffect(() => {
    document.documentElement.lang = language;
    document.title = t('app.title');
  }, [language]);

  const refresh = async () => {
    const next = await api.state();
    setState(next);
    return next;
  };

  // The tenant's colour (contrast-checked when set): through the CSSOM, which the CSP allows.
  const accent = state?.tenant.accentColor ?? null;
  useLayoutEffect(() => {
    if (accent) document.documentElement.style.setProperty('--accent', accent);
    else document.documentElement.style.removeProperty('--accent');
  }, [accent]);

  // Each new step's heading takes the focus, so a screen reader announces where the user is.
  useEffect(() => {
    if (!state) return;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading && document.activeElement !== heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [step, state !== null, fatal, handoff]);

  /** Shows a step: a new history entry, or this one replaced (the first step shown, a fallback). */
  const show = (to: StepName, how: 'push' | 'replace') => {
    setStep(to);
    if (stepInHistory(history.state) === to) return;
    if (how === 'push') history.pushState({ mimotoStep: to }, '');
    else history.replaceState({ mimotoStep: to }, '');
  };

  useEffect(() => {
    refresh()
      .then((s) => {
        if (s.redirectTo) return leaveFlow(s.redirectTo);
        show(allowedStep(s, stepInHistory(history.state)), 'replace');
        guardLeaving(true);
      })
      .catch((error) => {
        if (error instanceof FlowApiError && error.status === 410) setFatal('expired');
        else if (error instanceof FlowApiError && error.status === 401) setFatal('noSession');
        else setFatal('error');
      });
  }, []);

  // Back and Forward between the flow's own entries: the step of the entry, if still allowed.
  useEffect(() => {
    const onPop = (event: PopStateEvent) => {
      const wanted = stepInHistory(event.state);
      if (!wanted) return;
      setHandoff(false);
      refresh()
        .then((s) => {
          const to = allowedStep(s, wanted);
          setStep(to);
          if (to !== wanted) history.replaceState({ mimotoStep: to }, '');
          window.scrollTo(0, 0);
        })
        .catch(() => setFatal('error'));
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  // An ended flow has nothing to lose by leaving.
  useEffect(() => {
    if (fatal) guardLeaving(false);
  }, [fatal]);

  const switchLanguage = () => {
    const next: Language = language === 'ja' ? 'en' : 'ja';
    sessionStorage.setItem(LANGUAGE_KEY, next);
    setLanguage(next);
  };

  /** After a step is saved: reload the state and move to the next open step (or the given one). */
  const advance = async (to?: StepName) => {
    try {
      const next = await refresh();
      show(to ?? firstOpenStep(next), 'push');
      window.scrollTo(0, 0);
    } catch (error) {
      if (error instanceof FlowApiError && error.status === 410) setFatal('expired');
      else setFatal('error');
    }
  };

  const onApiError = (error: unknown) => {
    if (error instanceof FlowApiError && (error.status === 410 || error.status === 401)) {
      setFatal(error.status === 410 ? 'expired' : 'noSession');
    }
  };

  let body: preact.ComponentChildren;
  let order: StepName[] = [];
  if (fatal) {
    body = (
      <section class="card" role="alert">
        <h1>{t(fatal === 'error' ? 'app.errorTitle' : 'app.endedTitle')}</h1>
        <p>
          {t(fatal === 'expired' ? 'app.expired' : fatal === 'noSession' ? 'app.noSession' : 'app.error', {
            tenant: state?.tenant.displayName ?? t('app.theService'),
          })}
        </p>
      </section>
    );
  } else if (!state) {
    body = (
      <p class="status" aria-live="polite">
        {t('app.loading')}
      </p>
    );
  } else if (handoff) {
    body = (
      <HandoffPanel
        api={api}
        t={t}
        language={language}
        state={state}
        onApiError={onApiError}
        onClose={() => {
          setHandoff(false);
          advance();
        }}
      />
    );
  } else {
    order = stepsFor(state, step);
    const common = { api, t, language, state, onApiError };
    switch (step) {
      case 'consent':
        body = <ConsentStep {...common} onDone={() => advance()} />;
        break;
      case 'chip':
        body = (
          <ChipStep
            {...common}
            onDone={() => advance()}
            {...(state.verificationMethods.includes('image')
              ? { onUsePhotos: () => show('documentType', 'push') }
              : {})}
          />
        );
        break;
      case 'documentType':
        body = (
          <DocumentTypeStep
            {...common}
            onDone={() => advance()}
            {...(state.steps.chip !== null ? { onUseChip: () => show('chip', 'push') } : {})}
          />
        );
        break;
      case 'front':
      case 'back':
      case 'tilted':
        body = (
          <DocumentCaptureStep
            key={step}
            {...common}
            side={step}
            onDone={() => advance()}
            onChooseType={() => show('documentType', 'push')}
            onHandoff={() => setHandoff(true)}
          />
        );
        break;
      case 'face':
        body = <FaceCheckStep {...common} onDone={() => advance()} onHandoff={() => setHandoff(true)} />;
        break;
      case 'personal':
        body = <PersonalDataStep {...common} onDone={() => advance()} />;
        break;
      case 'review':
        body = <ReviewStep {...common} onEdit={(to) => show(to, 'push')} onMissing={() => advance()} />;
        break;
    }
  }
  const position = order.indexOf(step);

  return (
    <div class="shell">
      <header class="top">
        <span class="brand">
          {state?.tenant.logoUrl && <img class="logo" src={state.tenant.logoUrl} alt="" />}
          {state ? (
            <span>
              <span class="tenant-name">{state.tenant.displayName}</span>
              <span class="service">{t('app.title')}</span>
            </span>
          ) : (
            t('app.title')
          )}
        </span>
        <button
          type="button"
          class="link-button"
          onClick={switchLanguage}
          aria-label={t('app.languageLabel')}
        >
          {t('app.language')}
        </button>
      </header>
      <main>
        {position >= 0 && (
          <p class="progress">
            {t('app.progress', { current: position + 1, total: order.length })}
            <progress max={order.length} value={position + 1} aria-hidden="true" />
          </p>
        )}
        {body}
      </main>
    </div>
  );
}
