// A horizontal bar chart as hand-written SVG (no plotting library): one bar per row, values in
// [0, 1] shown as percentages, with an optional target line.
export interface Bar {
  label: string;
  value: number;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function barSvg(
  title: string,
  bars: readonly Bar[],
  target?: { value: number; label: string },
): string {
  const rowH = 18;
  const labelW = 190;
  const plotW = 360;
  const top = 28;
  const H = top + rowH * bars.length + 30;
  const W = labelW + plotW + 70;
  const x = (v: number) => labelW + plotW * Math.max(0, Math.min(1, v));
  const rows = bars
    .map((b, i) => {
      const y = top + i * rowH;
      return `<text x="${labelW - 6}" y="${y + 13}" text-anchor="end">${escapeXml(b.label)}</text>
<rect x="${labelW}" y="${y + 3}" width="${(x(b.value) - labelW).toFixed(1)}" height="${rowH - 6}" fill="#1f6feb" fill-opacity="0.7"/>
<text x="${(x(b.value) + 4).toFixed(1)}" y="${y + 13}">${(100 * b.value).toFixed(1)} %</text>`;
    })
    .join('\n');
  const axisY = top + rowH * bars.length;
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (v) =>
        `<line x1="${x(v)}" y1="${top}" x2="${x(v)}" y2="${axisY}" stroke="#ddd"/><text x="${x(v)}" y="${axisY + 14}" text-anchor="middle">${v * 100} %</text>`,
    )
    .join('');
  const targetLine = target
    ? `<line x1="${x(target.value)}" y1="${top - 4}" x2="${x(target.value)}" y2="${axisY}" stroke="#cf222e" stroke-dasharray="4 3"/><text x="${x(target.value)}" y="${H - 4}" text-anchor="middle" fill="#cf222e">${escapeXml(target.label)}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="#fff"/>
<text x="8" y="16" font-weight="bold">${escapeXml(title)}</text>
${ticks}
${rows}
${targetLine}
</svg>
`;
}
