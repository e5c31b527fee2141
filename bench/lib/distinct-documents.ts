// The real Japanese documents counted per distinct card, not per image: a card photographed six
// times counts once, with its views beside it (bench:real). Which images are views of one card is
// told by what they print: the same type, name, birth date and number.

export interface CardView {
  file: string;
  /** cardOf() of the view's truth row. */
  card: string;
  typeDetected: boolean;
  fields: Record<string, boolean | null>;
  ocrConfident: boolean;
  approvable: boolean;
}

/** One key per distinct card, from its truth row as printed. */
export function cardOf(truth: Record<string, string | undefined>): string {
  const printed = (k: string) => (truth[k] ?? '').normalize('NFKC').replace(/\s+/g, '');
  return [truth.document_type, printed('name'), printed('birth_date'), printed('number')].join('|');
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);
const frac = (n: number, d: number) => `${n}/${d} (${pct(n, d)})`;

/**
 * A card passes a measure when every view of it does (a reading that holds on one photo of a card
 * and not on another is not a card read right); each card's views are listed with how many pass.
 */
export function distinctDocumentSection(views: readonly CardView[], tunedOn: string): string {
  const cards = new Map<string, CardView[]>();
  for (const v of views) cards.set(v.card, [...(cards.get(v.card) ?? []), v]);
  const groups = [...cards.values()];
  const measures: [string, (v: CardView) => boolean | null][] = [
    ['type detected', (v) => v.typeDetected],
    ...Object.keys(views[0]?.fields ?? {}).map(
      (k) =>
        [`${k} exact`, (v: CardView) => v.fields[k] ?? null] as [string, (v: CardView) => boolean | null],
    ),
    ['OCR confident', (v) => v.ocrConfident],
    ['approvable', (v) => v.approvable],
  ];
  const lines = [
    `Per distinct document: ${groups.length} cards in ${views.length} images. A card counts as read right on a measure when every view of it is; – = not printed on that card. Tuned on: ${tunedOn}.`,
    '',
    `| measure | cards | ${groups.map((g, i) => `card ${i + 1} (${g.length} view${g.length > 1 ? 's' : ''})`).join(' | ')} |`,
    `|---|---|${groups.map(() => '---|').join('')}`,
  ];
  for (const [name, f] of measures) {
    const perCard = groups.map((g) => {
      const xs = g.map(f).filter((x): x is boolean => x !== null);
      return xs.length === 0 ? null : { ok: xs.filter(Boolean).length, n: xs.length };
    });
    const judged = perCard.filter((c): c is { ok: number; n: number } => c !== null);
    const passed = judged.filter((c) => c.ok === c.n).length;
    lines.push(
      `| ${name} | ${frac(passed, judged.length)} | ${perCard.map((c) => (c === null ? '–' : `${c.ok}/${c.n} views`)).join(' | ')} |`,
    );
  }
  lines.push('');
  lines.push(
    groups.map((g, i) => `card ${i + 1}: ${g.map((v) => `\`${v.file}\``).join(', ')}`).join('; ') + '.',
  );
  return lines.join('\n');
}
