// ROC figures of a distance-based matcher (smaller distance = more alike), in ISO/IEC 19795 terms:
// FAR = share of impostor pairs accepted, TAR = share of genuine pairs accepted (1 − FRR). Used by
// the face-match bench and the accuracy report (docs/accuracy.md: EER, TAR at FAR 1 % / 0.1 %).

export interface RocPoint {
  /** Pairs with distance ≤ threshold are accepted as the same person. */
  threshold: number;
  far: number;
  tar: number;
}

/** One point per distinct distance, from accepting nothing to accepting everything. */
export function computeRoc(genuine: readonly number[], impostor: readonly number[]): RocPoint[] {
  if (genuine.length === 0 || impostor.length === 0) throw new Error('ROC needs genuine and impostor pairs');
  const g = [...genuine].sort((a, b) => a - b);
  const i = [...impostor].sort((a, b) => a - b);
  const thresholds = [...new Set([...g, ...i])].sort((a, b) => a - b);
  const points: RocPoint[] = [{ threshold: -Infinity, far: 0, tar: 0 }];
  let gi = 0;
  let ii = 0;
  for (const t of thresholds) {
    while (gi < g.length && g[gi]! <= t) gi++;
    while (ii < i.length && i[ii]! <= t) ii++;
    points.push({ threshold: t, far: ii / i.length, tar: gi / g.length });
  }
  return points;
}

export interface EqualErrorRate {
  eer: number;
  /** A distance at which FAR and FRR are (closest to) equal; the centre of the gap when the classes separate. */
  threshold: number;
}

/** EER: the error rate where FAR = FRR. 0 when every genuine pair is closer than every impostor pair. */
export function equalErrorRate(genuine: readonly number[], impostor: readonly number[]): EqualErrorRate {
  // A loop, not Math.max(...xs): the accuracy report passes half a million impostor pairs.
  const maxGenuine = genuine.reduce((m, x) => Math.max(m, x), Number.NEGATIVE_INFINITY);
  const minImpostor = impostor.reduce((m, x) => Math.min(m, x), Number.POSITIVE_INFINITY);
  if (maxGenuine < minImpostor) return { eer: 0, threshold: (maxGenuine + minImpostor) / 2 };
  let best: EqualErrorRate & { gap: number } = { eer: 1, threshold: 0, gap: Infinity };
  for (const p of computeRoc(genuine, impostor)) {
    const frr = 1 - p.tar;
    const gap = Math.abs(p.far - frr);
    if (gap < best.gap) best = { eer: (p.far + frr) / 2, threshold: p.threshold, gap };
  }
  return { eer: best.eer, threshold: best.threshold };
}

/**
 * TAR at the loosest threshold whose FAR does not exceed `maxFar`. With n impostor pairs a FAR
 * below 1/n cannot be told from 0: `isResolved` says whether the set is large enough for the figure.
 */
export function tarAtFar(
  genuine: readonly number[],
  impostor: readonly number[],
  maxFar: number,
): { tar: number; threshold: number; isResolved: boolean } {
  let best: RocPoint = { threshold: -Infinity, far: 0, tar: 0 };
  for (const p of computeRoc(genuine, impostor)) if (p.far <= maxFar && p.tar >= best.tar) best = p;
  return { tar: best.tar, threshold: best.threshold, isResolved: impostor.length * maxFar >= 1 };
}
