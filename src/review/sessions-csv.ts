// The console's CSV export of a filtered session list (docs/console-api.md "Sessions"). Every cell
// is quoted (RFC 4180), and a cell a spreadsheet would run as a formula — starting with = + - @, a
// tab or a carriage return (OWASP "CSV injection") — gets a leading apostrophe, so a state value
// like `=HYPERLINK(…)` chosen by whoever created the session shows as text.
import type { CaseListItem } from './review-case.ts';

const COLUMNS = [
  'sessionId',
  'createdAt',
  'submittedAt',
  'status',
  'verificationStatus',
  'decisionReason',
  'documentType',
  'clientIpAddress',
  'state',
  'claimedBy',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | null | undefined): string {
  const text = value ?? '';
  const inert = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${inert.replaceAll('"', '""')}"`;
}

const cells = (item: CaseListItem): Record<(typeof COLUMNS)[number], string | null> => ({
  sessionId: item.sessionId,
  createdAt: item.createdAt,
  submittedAt: item.submittedAt,
  status: item.status,
  verificationStatus: item.verificationStatus,
  decisionReason: item.decisionReason,
  documentType: item.documentType,
  clientIpAddress: item.clientIpAddress,
  state: item.state,
  claimedBy: item.claim?.reviewer ?? null,
});

/** A byte-order mark first, so spreadsheet programs read the UTF-8 (Japanese names, reasons). */
export function sessionsCsv(items: readonly CaseListItem[]): string {
  const lines = [COLUMNS.map(csvCell).join(',')];
  for (const item of items) {
    const row = cells(item);
    lines.push(COLUMNS.map((column) => csvCell(row[column])).join(','));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
