// How to allow the camera again, per platform: shown wherever a step found no usable camera.
import type { Translate } from '../i18n.ts';

export function PermissionHelp({ t }: { t: Translate }) {
  return (
    <details class="permission-help">
      <summary>{t('capture.permission.title')}</summary>
      <ul>
        <li>{t('capture.permission.ios')}</li>
        <li>{t('capture.permission.android')}</li>
        <li>{t('capture.permission.desktop')}</li>
      </ul>
    </details>
  );
}
