/**
 * The one guard of the route tree (§2 "Guards and global behaviour", §6): asks `decideGuard` on every
 * location change and renders the route, redirects, leaves for an external site, or waits while the
 * stored session is being restored.
 */
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { EXTERNAL_LINKS } from '../config';
import { useSession } from '../features/accounts/selectors';
import { decideGuard } from './guard';
import { findRoute } from './table';
import { titleKey } from './titles';

export function RouteGuard() {
  const { t } = useTranslation();
  const location = useLocation();
  const { signedIn, isAdmin, restoring } = useSession();
  const decision = decideGuard(
    location.pathname + location.search,
    { signedIn, isAdmin, restoring },
    EXTERNAL_LINKS,
  );
  const title = findRoute(location.pathname)?.title;

  useEffect(() => {
    if (decision === null && title)
      document.title = `${t(`routeTitles.${titleKey(title)}`, { defaultValue: title })} · ${t('app.title')}`;
  }, [decision, title, t]);

  if (decision === null) return <Outlet />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'external') return <ExternalRedirect href={decision.href} />;
  // 'wait': auth is restoring the stored session; the top progress bar runs too.
  return (
    <div className="ui-center" role="status">
      <p className="ui-dimmed">{t('app.loading')}…</p>
    </div>
  );
}

/** §2 external redirects (/docs, /blog, /admin): leave the app, with a link in case the browser blocks it. */
function ExternalRedirect({ href }: { href: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    window.location.assign(href);
  }, [href]);
  return (
    <div className="ui-center">
      <a className="ui-link" href={href}>
        {t('external.redirecting', { href })}
      </a>
    </div>
  );
}
