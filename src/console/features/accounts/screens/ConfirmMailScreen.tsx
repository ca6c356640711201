/**
 * /confirm-mail/{token} (spec §2; issue 13): confirms the address at once (mailLink machine, kind confirm). A
 * used, unknown or expired link goes to /expired; a network failure offers Try again.
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { mailLinkToView } from '../flowSelectors';
import { mailLinkLogic } from '../flows';
import '../i18n';
import './accounts.css';
import { Alert } from './Field';

export default function ConfirmMailScreen() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [logic] = useState(mailLinkLogic);
  const ref = useActorRef(logic, { input: { kind: 'confirm', token } });
  const view = useSelector(ref, mailLinkToView, shallowEqual);
  useEffect(() => {
    if (view.phase === 'expired') void navigate('/expired', { replace: true });
  }, [view.phase, navigate]);
  return (
    <section
      className="ui-card ui-card--raised ui-stack ui-stack--md accounts-form"
      data-testid="confirm-mail"
    >
      <h1 className="ui-title">{t('accounts.confirm.title')}</h1>
      {view.phase === 'confirming' && (
        <p className="ui-text" role="status">
          {t('accounts.confirm.confirming')}
        </p>
      )}
      {view.phase === 'done' && (
        <>
          <p className="ui-text" role="status" data-testid="confirm-mail-done">
            {t('accounts.confirm.done', { email: view.email ?? '' })}
          </p>
          <Link className="ui-button" to="/login">
            {t('accounts.confirm.signIn')}
          </Link>
        </>
      )}
      {view.phase === 'failed' && (
        <>
          <Alert>{view.error}</Alert>
          <button type="button" className="ui-button" onClick={() => ref.send({ type: 'mailLink.retry' })}>
            {t('accounts.confirm.retry')}
          </button>
        </>
      )}
    </section>
  );
}
