// Shared by the face-match and accuracy benches: the face fixtures (same name prefix = same
// person) and the ROC + distance-histogram SVG.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RocPoint } from '../../src/checks/face-match/index.ts';

export interface Fixture {
  name: string;
  person: string;
  image: Buffer;
}

export function loadFixtures(dir: string): Fixture[] {
  const names = readdirSync(dir)
    .filter((f) => /\.(png|jpe?g)$/i.test(f))
    .sort();
  if (names.length === 0) throw new Error(`no face fixtures in ${dir}`);
  return names.map((name) => ({
    name,
    person: name.replace(/\d*\.(png|jpe?g)$/i, ''),
    image: readFileSync(path.join(dir, name)),
  }));
}

// ---- SVG: ROC (FAR on a log axis) and the two distance histograms -------------------------------

export function rocSvg(
  roc: RocPoint[],
  genuine: number[],
  impostor: number[],
  midpoint: number,
  band: [number, number],
  eer: number,
): string {
  const W = 360;
  const H = 260;
  const m = { l: 46, r: 12, t: 24, b: 40 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const minFar = 1e-3;
  const fx = (far: number) =>
    m.l + (pw * (Math.log10(Math.max(far, minFar)) - Math.log10(minFar))) / -Math.log10(minFar);
  const hiTar = 1.01; // headroom, so a curve at TAR 100 % does not hide in the frame
  const fy = (tar: number, lo = 0.9) => m.t + ph * (1 - (Math.max(tar, lo) - lo) / (hiTar - lo));
  // ROC as a step curve over the points with FAR ≥ minFar (FAR 0 drawn at the axis' left edge).
  let d = '';
  let prev: RocPoint | undefined;
  for (const p of roc) {
    const x = fx(p.far);
    const y = fy(p.tar);
    d += prev
      ? ` L${x.toFixed(1)},${fy(prev.tar).toFixed(1)} L${x.toFixed(1)},${y.toFixed(1)}`
      : `M${x.toFixed(1)},${y.toFixed(1)}`;
    prev = p;
  }
  d += ` L${fx(1).toFixed(1)},${fy(1).toFixed(1)}`;
  const xt = [1e-3, 1e-2, 1e-1, 1].map(
    (v) =>
      `<line x1="${fx(v)}" y1="${m.t}" x2="${fx(v)}" y2="${m.t + ph}" stroke="#ddd"/><text x="${fx(v)}" y="${m.t + ph + 14}" text-anchor="middle">${v * 100} %</text>`,
  );
  const yt = [0.9, 0.95, 1].map(
    (v) =>
      `<line x1="${m.l}" y1="${fy(v)}" x2="${m.l + pw}" y2="${fy(v)}" stroke="#ddd"/><text x="${m.l - 4}" y="${fy(v) + 4}" text-anchor="end">${Math.round(v * 100)} %</text>`,
  );
  const roc1 = `<g>${xt.join('')}${yt.join('')}<rect x="${m.l}" y="${m.t}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>
<path d="${d}" fill="none" stroke="#1f6feb" stroke-width="2.5"/>
<text x="${m.l + pw - 6}" y="${m.t + ph - 8}" text-anchor="end">EER ${(100 * eer).toFixed(2)} %</text>
<text x="${m.l + pw / 2}" y="${H - 6}" text-anchor="middle">FAR (log; 0 drawn at 0.1 %)</text>
<text x="12" y="${m.t + ph / 2}" text-anchor="middle" transform="rotate(-90 12 ${m.t + ph / 2})">TAR</text>
<text x="${m.l}" y="16">ROC, ${genuine.length} genuine / ${impostor.length} impostor pairs</text></g>`;

  // Histogram of distances, genuine and impostor each normalised to its own count.
  const ox = W;
  const lo = 0.2;
  const hi = 1.2;
  const bins = 40;
  const bw = (hi - lo) / bins;
  const hist = (xs: number[]) => {
    const h = new Array<number>(bins).fill(0);
    for (const x of xs) h[Math.min(bins - 1, Math.max(0, Math.floor((x - lo) / bw)))]! += 1 / xs.length;
    return h;
  };
  const hg = hist(genuine);
  const hi_ = hist(impostor);
  const top = Math.max(...hg, ...hi_);
  const hx = (v: number) => ox + m.l + (pw * (v - lo)) / (hi - lo);
  const hy = (v: number) => m.t + ph * (1 - v / top);
  const bars = (h: number[], colour: string) =>
    h
      .map((v, i) =>
        v > 0
          ? `<rect x="${hx(lo + i * bw).toFixed(1)}" y="${hy(v).toFixed(1)}" width="${(pw / bins).toFixed(1)}" height="${(m.t + ph - hy(v)).toFixed(1)}" fill="${colour}" fill-opacity="0.55"/>`
          : '',
      )
      .join('');
  const ticks = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2]
    .map((v) => `<text x="${hx(v)}" y="${m.t + ph + 14}" text-anchor="middle">${v.toFixed(1)}</text>`)
    .join('');
  const histPanel = `<g><rect x="${ox + m.l}" y="${m.t}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>
<rect x="${hx(band[0])}" y="${m.t}" width="${hx(band[1]) - hx(band[0])}" height="${ph}" fill="#f2cc60" fill-opacity="0.35"/>
${bars(hg, '#2da44e')}${bars(hi_, '#cf222e')}
<line x1="${hx(midpoint)}" y1="${m.t}" x2="${hx(midpoint)}" y2="${m.t + ph}" stroke="#000" stroke-dasharray="4 3"/>
${ticks}<text x="${ox + m.l + pw / 2}" y="${H - 6}" text-anchor="middle">descriptor distance</text>
<text x="${ox + m.l}" y="16">distances: <tspan fill="#2da44e">genuine</tspan> · <tspan fill="#cf222e">impostor</tspan> · threshold, band</text></g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${H}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="#fff"/>
${roc1}
${histPanel}
</svg>
`;
}
