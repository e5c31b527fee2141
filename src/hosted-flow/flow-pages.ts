// The few HTML pages the server itself renders (issue 5 item 1): the "expired link" page (410),
// the "opened from another network" page (403), and the flow page placeholder that the Vite +
// Preact build replaces. No script, no third-party resource.
import type { FastifyReply } from 'fastify';
import type { Language } from './flow-messages.ts';

/** Strict CSP for server-rendered pages: nothing but inline-free HTML and our own styles. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** CSP for JSON responses: they are never documents, so nothing may load. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

type Page = { title: string; body: string };
const PAGES: Record<'expired' | 'wrongNetwork' | 'flowPlaceholder', Record<Language, Page>> = {
  expired: {
    ja: {
      title: 'リンクの有効期限が切れています',
      body: 'このリンクはすでに使用されたか、有効期限が切れています。お手続き中のサービスに戻り、もう一度本人確認を始めてください。',
    },
    en: {
      title: 'This link has expired',
      body: 'This link has already been used or has expired. Please go back to the service you came from and start the verification again.',
    },
  },
  wrongNetwork: {
    ja: {
      title: 'このリンクは開けません',
      body: 'このリンクは、お手続きを始めた端末・ネットワークからのみ開けます。同じ端末でもう一度お試しください。',
    },
    en: {
      title: 'This link cannot be opened here',
      body: 'This link can only be opened from the device and network where you started. Please try again there.',
    },
  },
  flowPlaceholder: {
    ja: { title: '本人確認', body: '本人確認の画面は準備中です。' },
    en: { title: 'Identity verification', body: 'The verification screens are coming soon.' },
  },
};

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function sendPage(reply: FastifyReply, status: number, page: keyof typeof PAGES, language: Language) {
  const { title, body } = PAGES[page][language];
  reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .send(
      `<!doctype html>\n<html lang="${language}"><head><meta charset="utf-8">` +
        '<meta name="viewport" content="width=device-width, initial-scale=1">' +
        `<title>${escapeHtml(title)}</title></head>` +
        `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></main></body></html>\n`,
    );
}
