/**
 * A route whose screen a later issue builds (§2 "Screen contents of most routes ...: not shown"): a clear
 * page naming the screen and its route, with a link back — never a blank page. Plain HTML (shell/plain.css):
 * it also renders in the auth-free layout (adaptive routes, signed out), which has no Mantine.
 */
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { RouteEntry } from '../routes/table';
import { titleKey } from '../routes/titles';

export function ComingLater({ entry }: { entry: RouteEntry }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <section className="ui-card ui-stack" style={{ maxWidth: 640 }} data-testid="coming-later">
      <h1 className="ui-title">
        {t('later.title', {
          title: t(`routeTitles.${titleKey(entry.title)}`, { defaultValue: entry.title }),
        })}
      </h1>
      <p className="ui-dimmed">{t('later.body', { path: pathname })}</p>
      <Link className="ui-link" to="/dashboard">
        {t('app.backToDashboard')}
      </Link>
    </section>
  );
}
