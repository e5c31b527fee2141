// The few HTML pages the server itself renders: the "expired link" page (410), the "opened from
// another network" page (403), the "no session" page (401) and the flow page placeholder that the
// Vite + Preact build replaces. Each names the tenant that asked (tenants/tenant-branding.ts), in
// its colour, and says what to do next. No script, no third-party resource: one stylesheet of ours.
import type { FastifyReply } from 'fastify';
import type { TenantBranding } from '../tenants/index.ts';
import type { Language } from './flow-messages.ts';

/** Strict CSP for server-rendered pages: nothing but inline-free HTML and our own styles. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** CSP for JSON responses: they are never documents, so nothing may load. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

type Page = { title: string; body: string; next: string };
type PageName = 'expired' | 'handoffExpired' | 'wrongNetwork' | 'noSession' | 'flowPlaceholder';
const PAGES: Record<PageName, Record<Language, Page>> = {
  expired: {
    ja: {
      title: 'リンクの有効期限が切れています',
      body: 'このリンクはすでに使用されたか、有効期限が切れています。',
      next: 'お手続き中のサービス（{tenant}）に戻り、本人確認の新しいリンクを発行してもらってください。',
    },
    en: {
      title: 'This link has expired',
      body: 'This link has already been used or has expired.',
      next: 'Please go back to {tenant} and ask for a new verification link.',
    },
  },
  handoffExpired: {
    ja: {
      title: 'このQRコードは使えません',
      body: 'スマートフォンで続けるためのQRコード・リンクは、1回だけ、数分間のみ使えます。',
      next: '最初の端末で「スマートフォンで続ける」をもう一度押し、新しいQRコードを読み取ってください。本人確認が終了している場合は、{tenant} で新しいリンクを発行してもらってください。',
    },
    en: {
      title: 'This QR code cannot be used',
      body: 'The QR code or link to continue on a phone works once, for a few minutes only.',
      next: 'On your first device, choose "Continue on a phone" again and scan the new code. If the verification has ended, ask {tenant} for a new link.',
    },
  },
  wrongNetwork: {
    ja: {
      title: 'このリンクは開けません',
      body: 'このリンクは、お手続きを始めた端末・ネットワークからのみ開けます。',
      next: 'お手続きを始めた端末で、もう一度開いてください。開けない場合は、{tenant} で新しいリンクを発行してもらってください。',
    },
    en: {
      title: 'This link cannot be opened here',
      body: 'This link can only be opened from the device and network where you started.',
      next: 'Please open it again on that device. If you cannot, ask {tenant} for a new verification link.',
    },
  },
  noSession: {
    ja: {
      title: '本人確認を始められません',
      body: 'このページは、本人確認のリンクからのみ開けます。',
      next: 'お手続き中のサービス（{tenant}）に戻り、本人確認のリンクを開いてください。',
    },
    en: {
      title: 'The verification cannot start here',
      body: 'This page can only be opened from a verification link.',
      next: 'Please go back to {tenant} and open its verification link.',
    },
  },
  flowPlaceholder: {
    ja: { title: '本人確認', body: '本人確認の画面は準備中です。', next: '' },
    en: { title: 'Identity verification', body: 'The verification screens are coming soon.', next: '' },
  },
};

/** Who asked, when no tenant is known (a link that names no session of ours). */
const UNKNOWN_TENANT: Record<Language, string> = { ja: 'ご利用のサービス', en: 'the service you came from' };
const SERVICE_NAME: Record<Language, string> = { ja: '本人確認', en: 'Identity verification' };

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The tenant as the pages need it: its branding and the address of its logo. */
export type PageTenant = TenantBranding & { logoUrl: string | null };

export const logoUrlOf = (tenantId: string, branding: TenantBranding) =>
  branding.logo ? `/verify/logos/${tenantId}/${branding.logo.sha256}` : null;

export function sendPage(
  reply: FastifyReply,
  status: number,
  page: PageName,
  language: Language,
  tenant: PageTenant | null = null,
) {
  const { title, body, next } = PAGES[page][language];
  const who = tenant?.displayName ?? UNKNOWN_TENANT[language];
  // The accent is a validated #rrggbb (brandingOf); the stylesheet takes it from its URL.
  const css = `/verify/page.css${tenant?.accentColor ? `?accent=${tenant.accentColor.slice(1)}` : ''}`;
  const logo = tenant?.logoUrl ? `<img class="logo" src="${escapeHtml(tenant.logoUrl)}" alt="">` : '';
  const header = tenant
    ? `<header class="top">${logo}<span class="brand">${escapeHtml(tenant.displayName)}</span>` +
      `<span class="service">${SERVICE_NAME[language]}</span></header>`
    : `<header class="top"><span class="brand">${SERVICE_NAME[language]}</span></header>`;
  const nextStep = next ? `<p class="next">${escapeHtml(next).replace('{tenant}', escapeHtml(who))}</p>` : '';
  // Returned, so that the route's async handler hands Fastify the reply it sent: resolving with
  // undefined after a send made Fastify send again, and log the URL, token included, at warn and
  // error with a stack (issue 46).
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .send(
      `<!doctype html>\n<html lang="${language}"><head><meta charset="utf-8">` +
        '<meta name="viewport" content="width=device-width, initial-scale=1">' +
        `<title>${escapeHtml(title)}</title><link rel="stylesheet" href="${css}"></head>` +
        `<body><div class="shell">${header}<main><section class="card" role="alert">` +
        `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>${nextStep}</section></main></div></body></html>\n`,
    );
}

const DEFAULT_ACCENT = '0b57d0';

/** The pages' stylesheet: the flow app's look, in the tenant's accent when the URL gives a valid one. */
export function pageStylesheet(accent: unknown): string {
  const colour = typeof accent === 'string' && /^[0-9a-fA-F]{6}$/.test(accent) ? accent : DEFAULT_ACCENT;
  return `:root{--accent:#${colour};--ink:#1a1a1a;--muted:#4a4a4a;--line:#c4c7cc;color:var(--ink);background:#f3f4f6;line-height:1.6;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP","Yu Gothic",sans-serif}
*{box-sizing:border-box}body{margin:0}.shell{max-width:560px;margin:0 auto;min-height:100vh}
.top{display:flex;gap:10px;align-items:center;padding:10px 16px;background:#fff;border-bottom:4px solid var(--accent)}
.logo{max-height:32px;max-width:120px}.brand{font-weight:700}.service{margin-left:auto;color:var(--muted);font-size:.875rem}
main{padding:12px}.card{background:#fff;border-radius:12px;padding:16px;border:1px solid var(--line)}
h1{font-size:1.25rem;margin:0 0 8px;line-height:1.4}p{margin:0 0 12px}.next{border-left:4px solid var(--accent);padding:4px 12px;font-weight:600}
`;
}
