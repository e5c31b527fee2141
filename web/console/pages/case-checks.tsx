// What the checks saw: OCR fields beside the user's input and preRegisteredInfo with differences
// marked (an unread OCR field is "not read"), and — folded below the case — every check result as
// stored, with its scores and signals, and the thresholds the decision used.
import { useConsole } from '../console-context.ts';
import { lookup } from '../i18n.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * Which of a comparison row's sources disagree with the document. A field the OCR did not read
 * (`ocrRead: false`, or no OCR value) contradicts nothing: it is "not read", never "differs".
 */
function mismatches(row: Json): { userInput: boolean; preRegistered: boolean; isUnread: boolean } {
  const isUnread = row.ocrRead === false;
  const hasNoReading = isUnread || row.ocr === null || row.ocr === undefined || row.ocr === '';
  if (hasNoReading) return { userInput: false, preRegistered: false, isUnread };
  return {
    userInput: row.userInputMatchesOcr === false,
    preRegistered: row.preRegisteredMatchesOcr === false,
    isUnread,
  };
}

export function ComparisonTable({ comparison }: { comparison: unknown }) {
  const { t, language } = useConsole();
  const rows: [string, Json][] = Array.isArray(comparison)
    ? comparison.filter(isObject).map((row) => [String(row.field ?? ''), row])
    : isObject(comparison)
      ? Object.entries(comparison).filter((entry): entry is [string, Json] => isObject(entry[1]))
      : [];
  if (rows.length === 0) return <p>{t('case.noComparison')}</p>;
  const cell = (value: unknown, different: boolean) => (
    <td class={different ? 'diff' : undefined}>
      {show(value)}
      {different ? <span class="diff-mark"> ({t('case.different')})</span> : null}
    </td>
  );
  return (
    <div class="table-wrap">
      <table class="comparison">
        <thead>
          <tr>
            <th scope="col">{t('case.field')}</th>
            <th scope="col">{t('case.ocr')}</th>
            <th scope="col">{t('case.userInput')}</th>
            <th scope="col">{t('case.preRegistered')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([field, row]) => {
            const diff = mismatches(row);
            return (
              <tr key={field}>
                <th scope="row">{lookup(language, `field.${field}`) ?? field}</th>
                {diff.isUnread ? <td class="unread">{t('case.notRead')}</td> : <td>{show(row.ocr)}</td>}
                {cell(row.userInput, diff.userInput && row.userInput != null)}
                {cell(row.preRegistered, diff.preRegistered && row.preRegistered != null)}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Signals({ signals }: { signals: unknown[] }) {
  const { t } = useConsole();
  return (
    <div>
      <h4>{t('case.signals')}</h4>
      {signals.length === 0 ? (
        <p>—</p>
      ) : (
        <ul class="signals">
          {signals.filter(isObject).map((signal, i) => (
            <li key={i} class={`severity-${String(signal.severity ?? '')}`}>
              <strong>{show(signal.code ?? signal.type)}</strong> · {show(signal.severity)} —{' '}
              {show(signal.message)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One check's result: scalar fields as a list, signals and nested objects below. */
function CheckCard({ name, result }: { name: string; result: Json }) {
  const { language } = useConsole();
  const scalars = Object.entries(result).filter(([, v]) => !isObject(v) && !Array.isArray(v));
  const nested = Object.entries(result).filter(([k, v]) => isObject(v) && k !== 'payload');
  const signals = Array.isArray(result.signals) ? result.signals : null;
  return (
    <article class="check">
      <h3>{lookup(language, `check.${name}`) ?? name}</h3>
      <dl>
        {scalars.map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{show(value)}</dd>
          </div>
        ))}
        {nested.map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>
              <code>{JSON.stringify(value)}</code>
            </dd>
          </div>
        ))}
      </dl>
      {signals ? <Signals signals={signals} /> : null}
    </article>
  );
}

/**
 * One panel per check, in the order the server lists them: the check registry's
 * (src/checks/check-registry.ts), so a new check gets its panel with no change here. Its title is
 * the `check.<id>` message when there is one, else the id.
 */
export function CheckResults({ results }: { results: unknown }) {
  const { t } = useConsole();
  if (!isObject(results) || Object.keys(results).length === 0) return <p>{t('case.noResults')}</p>;
  return (
    <div class="checks">
      {Object.entries(results)
        .filter((entry): entry is [string, Json] => isObject(entry[1]))
        .map(([name, result]) => (
          <CheckCard key={name} name={name} result={result} />
        ))}
    </div>
  );
}

/** A flat table of name → value (thresholds, decision metadata). */
export function ValueTable({ values, caption }: { values: unknown; caption: string }) {
  if (!isObject(values) || Object.keys(values).length === 0) return null;
  return (
    <table class="values">
      <caption>{caption}</caption>
      <tbody>
        {Object.entries(values).map(([key, value]) => (
          <tr key={key}>
            <th scope="row">{key}</th>
            <td>
              {Array.isArray(value) || isObject(value) ? <code>{JSON.stringify(value)}</code> : show(value)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
