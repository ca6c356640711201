/**
 * The auth-free layout of §2 (login, register, password reset, 404, expired): a centred column. Plain HTML
 * with shell/plain.css — the signed-out path ships no Mantine JavaScript (shell/mantine.tsx).
 */
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { RouteFallback } from './RouteFallback';

export function AuthFreeLayout() {
  const { t } = useTranslation();
  return (
    <div className="ui-page">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="ui-page__header">{t('app.title')}</header>
      <main id="main" className="ui-page__main" tabIndex={-1}>
        <Suspense fallback={<RouteFallback />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
