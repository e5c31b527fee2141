// The case's pictures: document front and back, the reference selfie and the
// liveness frames. Each opens in a viewer that zooms (buttons or +/−) and closes with Escape.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useConsole } from '../console-context.ts';
import { lookup } from '../i18n.ts';

export interface CaseImage {
  name: string;
  url: string;
}

/** The detail's `images` (name → URL, or name → list of URLs for the frames) as a flat list. */
export function listImages(images: unknown): CaseImage[] {
  if (!images || typeof images !== 'object') return [];
  if (Array.isArray(images))
    return images.flatMap((item, i) =>
      typeof item === 'string'
        ? [{ name: `image ${i + 1}`, url: item }]
        : item && typeof item.url === 'string'
          ? [{ name: String(item.name ?? `image ${i + 1}`), url: item.url }]
          : [],
    );
  return Object.entries(images as Record<string, unknown>).flatMap(([name, value]) => {
    if (typeof value === 'string') return [{ name, url: value }];
    if (Array.isArray(value))
      return listImages(value).map((image, i) => ({ name: `${name} ${i + 1}`, url: image.url }));
    return [];
  });
}

function ImageViewer({ image, title, onClose }: { image: CaseImage; title: string; onClose: () => void }) {
  const { t } = useConsole();
  const [zoom, setZoom] = useState(1);
  const closeButton = useRef<HTMLButtonElement>(null);
  const zoomBy = (factor: number) => setZoom((z) => Math.min(6, Math.max(0.5, z * factor)));
  // A layout effect, so focus is inside the dialog as soon as it is in the page: a key pressed right
  // after it opens (+, Escape) reaches the dialog's handler, not the thumbnail behind it.
  useLayoutEffect(() => {
    closeButton.current?.focus();
  }, []);
  return (
    <div
      class="viewer"
      role="dialog"
      aria-modal="true"
      aria-label={title}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
        if (event.key === '+' || event.key === '=') zoomBy(1.25);
        if (event.key === '-') zoomBy(0.8);
      }}
    >
      <div class="viewer-bar">
        <span>{title}</span>
        <button type="button" class="secondary" onClick={() => zoomBy(0.8)} aria-label={t('case.zoomOut')}>
          −
        </button>
        <output aria-live="polite">{Math.round(zoom * 100)}%</output>
        <button type="button" class="secondary" onClick={() => zoomBy(1.25)} aria-label={t('case.zoomIn')}>
          +
        </button>
        <button type="button" ref={closeButton} onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
      <div class="viewer-canvas">
        <img src={image.url} alt={title} style={{ width: `${zoom * 100}%` }} />
      </div>
    </div>
  );
}

export function CaseImages({ images }: { images: CaseImage[] }) {
  const { t, language } = useConsole();
  const [open, setOpen] = useState<CaseImage | null>(null);
  // "frame-3" and "liveness 3" read as "Liveness frame 4" / "… 3"; other names from the messages.
  const title = (image: CaseImage) => {
    const frame = image.name.match(/^frame-(\d+)$/);
    if (frame) return `${lookup(language, 'image.frame')} ${Number(frame[1]) + 1}`;
    const [base = '', index] = image.name.split(' ');
    const text = lookup(language, `image.${base}`) ?? base;
    return index ? `${text} ${index}` : text;
  };
  if (images.length === 0) return <p>{t('case.noImages')}</p>;
  return (
    <>
      <ul class="thumbs">
        {images.map((image) => (
          <li key={image.url}>
            <button
              type="button"
              class="thumb"
              onClick={() => setOpen(image)}
              aria-label={t('case.openImage', { name: title(image) })}
            >
              <img src={image.url} alt="" loading="lazy" />
              <span>{title(image)}</span>
            </button>
          </li>
        ))}
      </ul>
      {open ? <ImageViewer image={open} title={title(open)} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
