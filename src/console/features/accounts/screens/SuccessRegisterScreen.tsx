/**
 * /success-register (spec §2; issue 13): "check your mailbox" for the address just registered (router state),
 * and "send the link again" (resend-verification through the mailRequest machine; same answer for any address).
 * Opened without that state (a bookmark, a later visit) it asks for the address to resend to.
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { mailRequestToView } from '../flowSelectors';
import { resendVerificationLogic } from '../flows';
import '../i18n';
import './accounts.css';
import { validateEmail } from '../registerValidation';
import { Alert, Field } from './Field';

export default function SuccessRegisterScreen() {
  const { t } = useTranslation();
  const state: unknown = useLocation().state;
  const given =
    typeof state === 'object' && state && typeof (state as { email?: unknown }).email === 'string'
      ? (state as { email: string }).email
      : '';
  const [typed, setTyped] = useState('');
  const email = given || typed.trim();
  const [logic] = useState(resendVerificationLogic);
  const ref = useActorRef(logic);
  const view = useSelector(ref, mailRequestToView, shallowEqual);
  return (
    <section
      className="ui-card ui-card--raised ui-stack ui-stack--md accounts-form"
      data-testid="success-register"
    >
      <h1 className="ui-title">{t('accounts.successRegister.title')}</h1>
      <p className="ui-text">
        {email ? t('accounts.successRegister.body', { email }) : t('accounts.successRegister.bodyNoEmail')}
      </p>
      {view.sent && (
        <p className="ui-alert ui-alert--info" role="status">
          {t('accounts.successRegister.resent')}
        </p>
      )}
      {view.error && <Alert>{view.error}</Alert>}
      {!given && (
        <Field label={t('accounts.forgot.email')}>
          {(ids) => (
            <input
              {...ids}
              className="ui-input"
              type="email"
              autoComplete="email"
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              data-testid="resend-email"
            />
          )}
        </Field>
      )}
      {(given || !validateEmail(typed)) && (
        <button
          type="button"
          className="ui-button ui-button--light"
          aria-busy={view.sending}
          onClick={() => {
            if (view.sent) ref.send({ type: 'mailRequest.again' });
            ref.send({ type: 'mailRequest.submit', email });
          }}
          data-testid="resend-verification"
        >
          {t('accounts.successRegister.resend')}
        </button>
      )}
      <Link className="ui-link" to="/login">
        {t('accounts.successRegister.signIn')}
      </Link>
    </section>
  );
}
