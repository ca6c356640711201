/** §2 /404: unknown paths land here. Plain HTML (shell/plain.css): the auth-free layout has no Mantine. */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="ui-card ui-stack" data-testid="not-found">
      <h1 className="ui-title">{t('notFound.title')}</h1>
      <p className="ui-text">{t('notFound.body')}</p>
      <Link className="ui-link" to="/dashboard">
        {t('app.backToDashboard')}
      </Link>
    </section>
  );
}

/** §2 /expired, §8 "Session expired: Your session has expired". */
export function Expired() {
  const { t } = useTranslation();
  return (
    <section className="ui-card ui-stack" data-testid="expired">
      <h1 className="ui-title">{t('expired.title')}</h1>
      <p className="ui-text">{t('expired.body')}</p>
      <Link className="ui-link" to="/login">
        {t('expired.signIn')}
      </Link>
    </section>
  );
}
