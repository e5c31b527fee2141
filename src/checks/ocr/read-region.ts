// One field's zone read, and read again (other scales, without its rules, a local threshold, a
// wider search) while the reading is unsure or does not fit the field.
import sharp from 'sharp';
import { type Layout, type Region, toPixels } from './document-regions.ts';
import { cropPng, type GreyImage } from './find-document.ts';
import { type OcrEngine, type OcrRecognition, PAGE_SEGMENTATION } from './ocr-engine.ts';
import { cropWithoutRules, stretch } from './prepare-crop.ts';

/** Tesseract whitelists: a number's digits, an MRZ's characters. */
export const DIGITS = '0123456789 ';
export const MRZ_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

export type Recognised = {
  text: string;
  confidence: number;
  words: OcrRecognition['words'];
  /** Texts read at the other scales when none fitted the field (readRegion). */
  rereads?: string[];
  /**
   * A fitting reading that was unsure is read again (readRegion `confirm`): here the reading at
   * another scale that gave the same value, or null when no two of three readings agreed.
   */
  confirmation?: Recognised | null;
  /** Only the local-threshold reading fitted the field (readRegion's last resort). */
  lastResort?: boolean;
  /** The document's read budget ran out before every reread was made (`rereads` is incomplete). */
  budgetSpent?: boolean;
};

/**
 * A key value the two recognisers read differently, that no other reading settles, is read at
 * most this sure: its field at 0.825 (ocr-result.ts field(), 0.5 + 0.5 × line), so the dispute
 * alone does not send the document to review (held below that, right readings of the real tuning
 * cards went to review); the rereads it causes are what settle it.
 */
const CONTESTED_MAX = 0.65;

/** A reading as its glyphs: spaces and marks are not what two readings are compared on. */
const comparable = (t: string) => t.normalize('NFKC').replace(/[\s\p{P}\p{S}]/gu, '');

/** The second recogniser's reading of a free-text line, where the engine has one. */
async function secondReading(
  engine: OcrEngine,
  png: Buffer,
  options: { psm?: string; whitelist?: string },
): Promise<Recognised | undefined> {
  const singleLine = (options.psm ?? PAGE_SEGMENTATION.singleLine) === PAGE_SEGMENTATION.singleLine;
  if (!engine.secondOpinion || !singleLine || options.whitelist) return undefined;
  const r = await engine.secondOpinion(png);
  return { text: r.text, confidence: r.confidence / 100, words: r.words };
}

/** One field's crop read, and read again while unsure or unfitting. */
export async function readRegion(
  engine: OcrEngine & { readonly spare?: boolean },
  image: GreyImage,
  region: Region,
  layout: Layout,
  options: {
    psm?: string;
    whitelist?: string;
    accept?: (text: string) => boolean;
    /**
     * A sure fitting reading this rejects (a name the dictionary does not know) is read again at
     * the reread scales first; the first that fits and passes is taken, else the reading goes on
     * as a fitting one.
     */
    prefer?: (text: string) => boolean;
    /**
     * A fitting reading less sure than `below` is read again at 1.4× and, if that gives another
     * value, at 0.75×, and if all three differ, at 1.7×: the value two readings agree on wins
     * (`confirmation`).
     */
    confirm?: { below: number; value: (r: Recognised) => string | undefined };
    /** Scales a reading that does not fit its field is read again at, in order (default 1.4×, 0.75×). */
    rereadAt?: readonly number[];
    /** Widen the crop by this factor first: condensed print (a licence's 有効期限 band) reads better. */
    stretchX?: number;
    /** Erase the ruled lines of the box the value is printed in (the official licence's rows). */
    eraseRules?: boolean;
    /**
     * Last, search for the value around its zone: the zone grown by this many units up and down
     * (half as much sideways) is read as a block, and the first line that fits is the value (a
     * card printed or cut a little off the layout: a camera photo cut at its top edge).
     */
    searchMargin?: number;
  } = {},
): Promise<Recognised> {
  const box = toPixels(region, layout);
  const crop = await cropPng(image, box);
  const png = options.stretchX ? await stretch(crop, options.stretchX) : crop;
  const once = async (input: Buffer, factor: number, binarization?: 'sauvola'): Promise<Recognised> => {
    const r = await engine.recognize(input, {
      psm: (options.psm ?? PAGE_SEGMENTATION.singleLine) as never,
      ...(options.whitelist ? { charWhitelist: options.whitelist } : {}),
      ...(binarization ? { binarization } : {}),
    });
    const words = r.words.map((w) => ({
      ...w,
      bbox: {
        x0: w.bbox.x0 / factor,
        y0: w.bbox.y0 / factor,
        x1: w.bbox.x1 / factor,
        y1: w.bbox.y1 / factor,
      },
    }));
    return { text: r.text.replace(/\n+$/, ''), confidence: r.confidence / 100, words };
  };
  const atScale = async (factor: number) => {
    const { width = 0 } = await sharp(png).metadata();
    const scaled = await sharp(png)
      .resize({ width: Math.max(8, Math.round(width * factor)) })
      .png()
      .toBuffer();
    return once(scaled, factor);
  };
  // Every pass after the first is a fallback, read only while the document's budget lasts.
  const spare = () => engine.spare !== false;
  const first = await once(png, 1);
  const fits = (text: string) => !options.accept || options.accept(text);
  const second = await secondReading(engine, png, options);
  if (second && fits(first.text) && comparable(second.text) === comparable(first.text))
    return { ...first, confidence: Math.max(first.confidence, second.confidence), confirmation: second };
  // A name the dictionary does not know is read again at the reread scales; a scale whose name
  // it knows is taken when read surely, an unsure one is left to the vote below (`confirm`),
  // which weighs the scales better (小川 read at 1× unsure, 小川蘭 at 1.4× unsure, 小川瞳 at 0.75×
  // and 1.7×).
  const sure = (r: Recognised) => !options.confirm || r.confidence >= options.confirm.below;
  if (options.prefer && fits(first.text) && !options.prefer(first.text)) {
    if (second && fits(second.text) && options.prefer(second.text) && sure(second))
      return { ...second, confidence: second.confidence * 0.95 };
    // tessdata_fast reads a kanji of a name right at one scale and a look-alike at another
    // (麗 → 鹿): the scale whose name the dictionary knows is the likelier reading.
    for (const factor of options.rereadAt ?? [1.4, 0.75]) {
      if (!spare()) break;
      const again = await atScale(factor);
      if (fits(again.text) && options.prefer(again.text) && sure(again))
        return { ...again, confidence: again.confidence * 0.95 };
    }
  }
  if (!options.accept || options.accept(first.text)) {
    const { confirm } = options;
    const value = confirm?.value(first);
    // A second recogniser that reads another value makes a sure first reading unsure.
    const contested = second !== undefined && second.text.trim() !== '';
    if (!confirm || value === undefined) return first;
    if (first.confidence >= confirm.below && !contested) return first;
    // tessdata_fast reads 誠 right at one scale and 識, 議 or 計 at the next: the first value a new
    // reading shares with an earlier one wins; 1.7× only when three differ (docs/ocr.md "Confidence").
    const readings = [first];
    if (second && fits(second.text) && confirm.value(second) !== undefined) readings.push(second);
    if (options.eraseRules && spare()) {
      // A boxed value spread over its box (the licence's 見　本　　花　子) reads with glyphs made up
      // in its gaps (山田一) at every scale: read without its rules and gaps, as a value read as
      // nothing is. Taken when sure; unsure, confirmed by the same crop at 1.4×, else one of the
      // readings a later one may agree with.
      const crop = await cropWithoutRules(image, box);
      const unruledPng = options.stretchX ? await stretch(crop, options.stretchX) : crop;
      const unruled = await once(unruledPng, 1);
      const v = confirm.value(unruled);
      if ((!options.accept || options.accept(unruled.text)) && v !== undefined) {
        // The same value: the first reading, whose word boxes split the name as printed, confirmed.
        if (v === value) return { ...first, confirmation: unruled };
        const taken = { ...unruled, confidence: unruled.confidence * 0.95 };
        if (unruled.confidence >= confirm.below) return taken;
        if (spare()) {
          const { width = 0 } = await sharp(unruledPng).metadata();
          const larger = await sharp(unruledPng)
            .resize({ width: Math.max(8, Math.round(width * 1.4)) })
            .png()
            .toBuffer();
          const again = await once(larger, 1.4);
          if (confirm.value(again) === v) return { ...taken, confirmation: again };
        }
        readings.push(unruled);
      }
    }
    for (const factor of [1.4, 0.75, 1.7]) {
      if (!spare()) break;
      const again = await atScale(factor);
      const v = confirm.value(again);
      const agreeing = v === undefined ? undefined : readings.find((r) => confirm.value(r) === v);
      if (agreeing) return { ...agreeing, confirmation: again };
      readings.push(again);
    }
    const confidence = contested ? Math.min(first.confidence, CONTESTED_MAX) : first.confidence;
    return { ...first, confidence, confirmation: null };
  }
  // The jpn model now and then drops a digit between kanji (7月 → 月) or misreads a glyph at one
  // scale and not at another: a value that does not fit its field is read again, larger then smaller.
  const { accept } = options;
  if (!accept) return first; // (every reading fits a field with no acceptor: returned above)
  const rereads: string[] = [];
  // The second recogniser's fitting reading of a line Tesseract's does not fit. Not a key value
  // (an address): taken. A key value: taken when a Tesseract reading below gives it too; alone, or
  // against another value Tesseract gives, it is not sure: a poor capture read one way by one
  // recogniser is no more than that.
  const lone =
    second && accept(second.text) ? { ...second, confidence: second.confidence * 0.95 } : undefined;
  const loneValue = lone && options.confirm?.value(lone);
  if (lone && loneValue === undefined) return lone;
  const tesseractOnly = async (): Promise<Recognised> => {
    if (options.eraseRules && spare()) {
      // A value boxed in ruled lines can read as nothing at all: read again without them.
      const unruled = await cropWithoutRules(image, box);
      const again = await once(options.stretchX ? await stretch(unruled, options.stretchX) : unruled, 1);
      if (accept(again.text)) return { ...again, confidence: again.confidence * 0.95 };
      rereads.push(again.text);
    }
    const scales = options.rereadAt ?? [1.4, 0.75];
    for (const factor of scales) {
      if (!spare()) return { ...first, rereads, budgetSpent: true };
      const again = await atScale(factor);
      if (accept(again.text)) {
        const accepted = { ...again, confidence: again.confidence * 0.95 };
        // A key value a reread gave unsure is confirmed as a first reading is: another scale that
        // gives the same value (a licence photo's birth date, misread at 1×, read right at 1.4× at
        // 0.6 and again at 0.75×).
        const { confirm } = options;
        const value = confirm?.value(accepted);
        if (!confirm || value === undefined || accepted.confidence >= confirm.below) return accepted;
        for (const other of [...scales.slice(scales.indexOf(factor) + 1), 1.7]) {
          if (!spare()) break;
          const third = await atScale(other);
          if (confirm.value(third) === value) return { ...accepted, confirmation: third };
        }
        return accepted;
      }
      rereads.push(again.text);
    }
    // Under glare or a dark corner one global threshold loses faint glyphs (a blurred name read as
    // nothing at every scale): last, the crop is read with a local threshold. Its text is not one of
    // `rereads`, the same binarisation at other scales, which tell a printed wrong My Number digit
    // (read alike every time) from a misread; the local threshold reads clean digits otherwise.
    if (!spare()) return { ...first, rereads, budgetSpent: true };
    const local = await once(png, 1, 'sauvola');
    if (accept(local.text)) {
      // A key value the global threshold gives too, at half size, is confirmed as any unsure reading
      // is: two readings agree (a typical My Number card's name 高橋 誠, read as nothing at 1×, 1.4×
      // and 0.75×). Alone it stays a last resort.
      const reading = { ...local, confidence: local.confidence * 0.95 };
      const value = options.confirm?.value(local);
      const half = value === undefined || !spare() ? undefined : await atScale(0.5);
      if (half && options.confirm?.value(half) === value) return { ...reading, confirmation: half };
      return { ...reading, lastResort: true };
    }
    if (options.searchMargin && spare()) {
      const m = options.searchMargin;
      const [x0, y0, x1, y1] = region;
      const wide = await cropPng(image, toPixels([x0 - m / 2, y0 - m, x1 + m / 2, y1 + m], layout));
      const block = await engine.recognize(wide, { psm: PAGE_SEGMENTATION.singleBlock as never });
      for (const line of block.lines) {
        const text = line.text.replace(/\n+$/, '');
        if (accept(text))
          return { text, confidence: (line.confidence / 100) * 0.9, words: line.words, rereads };
      }
    }
    return { ...first, rereads };
  };
  const read = await tesseractOnly();
  if (!lone) return read;
  if (!accept(read.text))
    return {
      ...lone,
      confidence: Math.min(lone.confidence, CONTESTED_MAX),
      rereads: read.rereads ?? rereads,
    };
  if (options.confirm?.value(read) === loneValue) {
    // Confirmed by the other recogniser, a local threshold's reading is no last resort.
    const { lastResort: _, ...agreed } = read;
    return { ...agreed, confidence: Math.max(read.confidence, lone.confidence), confirmation: lone };
  }
  return { ...read, confidence: Math.min(read.confidence, CONTESTED_MAX) };
}
