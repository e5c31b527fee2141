// The console's frame: who is signed in, the navigation their role may
// use (and nothing else), the language switch, and the screen for the current path. Paths live in
// the address bar, so a reload or a shared link opens the same screen.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { ConsoleApi, type ConsoleUser, type Role } from './console-api.ts';
import { ConsoleContext, type ConsoleContextValue } from './console-context.ts';
import { type Language, type MessageKey, translator } from './i18n.ts';
import { ApiKeysPage } from './pages/api-keys-page.tsx';
import { AuditPage } from './pages/audit-page.tsx';
import { BlacklistPage } from './pages/blacklist-page.tsx';
import { CasePage } from './pages/case-page.tsx';
import { LoginPage } from './pages/login-page.tsx';
import { ReviewQueuePage } from './pages/review-queue-page.tsx';
import { SessionsPage } from './pages/sessions-page.tsx';
import { SetPasswordPage } from './pages/set-password-page.tsx';
import { SettingsPage } from './pages/settings-page.tsx';
import { TenantsPage } from './pages/tenants-page.tsx';
import { UsersPage } from './pages/users-page.tsx';
import { WebhookEventsPage } from './pages/webhook-events-page.tsx';
import { ErrorText, Link } from './ui.tsx';

const LANGUAGE_KEY = 'mimoto.console.language';

interface NavItem {
  key: MessageKey;
  path: (user: ConsoleUser) => string;
  roles: Role[];
}

const tenant = (rest: string) => (user: ConsoleUser) => `/console/tenants/${user.tenantId}/${rest}`;

/** The navigation per role (docs/console-api.md "Roles"): a role sees only what it may use. */
const NAV: NavItem[] = [
  { key: 'nav.review', path: tenant('review'), roles: ['reviewer'] },
  { key: 'nav.sessions', path: tenant('sessions'), roles: ['reviewer', 'tenant_admin'] },
  { key: 'nav.apiKeys', path: tenant('api-keys'), roles: ['tenant_admin'] },
  { key: 'nav.settings', path: tenant('settings'), roles: ['tenant_admin'] },
  { key: 'nav.blacklist', path: tenant('blacklist'), roles: ['tenant_admin'] },
  { key: 'nav.webhooks', path: tenant('webhooks'), roles: ['tenant_admin'] },
  { key: 'nav.users', path: tenant('users'), roles: ['tenant_admin'] },
  { key: 'nav.tenants', path: () => '/console/tenants', roles: ['operator'] },
  { key: 'nav.users', path: () => '/console/users', roles: ['operator'] },
  { key: 'nav.audit', path: () => '/console/audit', roles: ['operator', 'tenant_admin'] },
];

function homePath(user: ConsoleUser): string {
  return NAV.find((item) => item.roles.includes(user.role))?.path(user) ?? '/console';
}

const TENANT_SCREENS: Record<string, (tenantId: string) => ComponentChildren> = {
  review: (tenantId) => <ReviewQueuePage tenantId={tenantId} />,
  sessions: (tenantId) => <SessionsPage tenantId={tenantId} />,
  'api-keys': (tenantId) => <ApiKeysPage tenantId={tenantId} />,
  settings: (tenantId) => <SettingsPage tenantId={tenantId} />,
  blacklist: (tenantId) => <BlacklistPage tenantId={tenantId} />,
  webhooks: (tenantId) => <WebhookEventsPage tenantId={tenantId} />,
  users: (tenantId) => <UsersPage tenantId={tenantId} />,
};

const OPERATOR_SCREENS: Record<string, () => ComponentChildren> = {
  '/console/tenants': () => <TenantsPage />,
  '/console/users': () => <UsersPage />,
  '/console/audit': () => <AuditPage />,
};

/** The screen for a path; null when the path is not one of ours. */
function screenFor(pathname: string): ComponentChildren | null {
  const caseMatch = pathname.match(/^\/console\/tenants\/([^/]+)\/sessions\/([^/]+)$/);
  if (caseMatch) {
    const sessionId = decodeURIComponent(caseMatch[2]!);
    // Keyed: "next case" starts the page afresh (no decision note or form state carried over).
    return <CasePage key={sessionId} tenantId={caseMatch[1]!} sessionId={sessionId} />;
  }
  const tenantMatch = pathname.match(/^\/console\/tenants\/([^/]+)\/([a-z-]+)$/);
  const tenantScreen = tenantMatch ? TENANT_SCREENS[tenantMatch[2]!] : undefined;
  if (tenantScreen) return tenantScreen(tenantMatch![1]!);
  return OPERATOR_SCREENS[pathname]?.() ?? null;
}

function initialLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (stored === 'ja' || stored === 'en') return stored;
  // The server wrote the Accept-Language choice into <html lang>.
  return document.documentElement.lang === 'en' ? 'en' : 'ja';
}

export function ConsoleApp() {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const [pathname, setPathname] = useState(window.location.pathname);
  const [user, setUser] = useState<ConsoleUser | null>(null);
  const [checked, setChecked] = useState(false);
  const [bootError, setBootError] = useState<unknown>(null);
  const api = useMemo(() => new ConsoleApi(), []);
  const t = translator(language);

  const navigate = (path: string) => {
    window.history.pushState(null, '', path);
    setPathname(new URL(path, window.location.origin).pathname);
    window.scrollTo(0, 0);
  };

  useEffect(() => {
    const onPop = () => setPathname(window.location.pathname);
    window.addEventListener('popstate', onPop);
    api.onSignedOut = () => setUser(null);
    if (window.location.pathname.startsWith('/console/set-password')) setChecked(true);
    else
      api
        .me()
        .then(setUser, (error) => {
          if (error?.status !== 401) setBootError(error);
        })
        .finally(() => setChecked(true));
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  // Before paint, so the page never shows text in one language under the other's lang attribute
  // (screen readers pick the voice from it).
  useLayoutEffect(() => {
    document.documentElement.lang = language;
    document.title = t('app.title');
  }, [language]);

  const switchLanguage = () => {
    const next: Language = language === 'ja' ? 'en' : 'ja';
    localStorage.setItem(LANGUAGE_KEY, next);
    setLanguage(next);
  };

  const signOut = async () => {
    await api.logout().catch(() => {});
    setUser(null);
    navigate('/console/login');
  };

  const context: ConsoleContextValue = { api, user, language, t, navigate };

  let main: ComponentChildren;
  if (pathname.startsWith('/console/set-password')) main = <SetPasswordPage />;
  else if (!checked) main = <p class="boot">{t('common.loading')}</p>;
  else if (bootError) main = <ErrorText error={bootError} />;
  else if (!user)
    main = (
      <LoginPage
        onSignedIn={(signedIn) => {
          setUser(signedIn);
          const wanted = pathname === '/console/login' || pathname === '/console' ? null : pathname;
          navigate(wanted ?? homePath(signedIn));
        }}
      />
    );
  else {
    const screen = screenFor(pathname);
    if (screen) main = screen;
    else if (pathname === '/console' || pathname === '/console/' || pathname === '/console/login') {
      queueMicrotask(() => navigate(homePath(user)));
      main = null;
    } else main = <p role="alert">{t('common.notFound')}</p>;
  }

  const nav = user ? NAV.filter((item) => item.roles.includes(user.role)) : [];
  return (
    <ConsoleContext.Provider value={context}>
      <a class="skip" href="#main">
        {t('app.skipToContent')}
      </a>
      <header class="top">
        <span class="brand">{t('app.title')}</span>
        {nav.length > 0 ? (
          <nav aria-label={t('nav.label')}>
            <ul>
              {nav.map((item) => {
                const href = item.path(user!);
                return (
                  <li key={href}>
                    <Link href={href} {...(pathname.startsWith(href) ? { 'aria-current': 'page' } : {})}>
                      {t(item.key)}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        ) : null}
        <div class="account">
          {user ? (
            <span class="who">
              {user.email} · {t(`role.${user.role}` as MessageKey)}
            </span>
          ) : null}
          <button
            type="button"
            class="secondary"
            onClick={switchLanguage}
            lang={language === 'ja' ? 'en' : 'ja'}
          >
            {t('app.languageLabel')}
          </button>
          {user ? (
            <button type="button" class="secondary" onClick={signOut}>
              {t('app.signOut')}
            </button>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {main}
      </main>
    </ConsoleContext.Provider>
  );
}
