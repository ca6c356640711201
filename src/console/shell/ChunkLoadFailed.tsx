/**
 * What a route shows when its chunk failed to load (§2): a message, then the page reloads after 3 s.
 * Plain HTML (shell/plain.css): it may render on the signed-out path, which has no Mantine provider.
 */
import { useTranslation } from 'react-i18next';

export function ChunkLoadFailed() {
  const { t } = useTranslation();
  return (
    <div className="ui-alert ui-alert--warning ui-stack" role="alert" style={{ maxWidth: 560 }}>
      <strong className="ui-alert__title">{t('chunk.failed')}</strong>
      <div>
        <button type="button" className="ui-button ui-button--light" onClick={() => window.location.reload()}>
          {t('chunk.reloadNow')}
        </button>
      </div>
    </div>
  );
}
