/** /success (spec §2, signed-out only; issue 13): the password was changed; sign in with the new one. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../i18n';
import './accounts.css';

export default function SuccessScreen() {
  const { t } = useTranslation();
  return (
    <section className="ui-card ui-card--raised ui-stack ui-stack--md accounts-form" data-testid="success">
      <h1 className="ui-title">{t('accounts.success.title')}</h1>
      <p className="ui-text">{t('accounts.success.body')}</p>
      <Link className="ui-button" to="/login">
        {t('accounts.success.signIn')}
      </Link>
    </section>
  );
}
