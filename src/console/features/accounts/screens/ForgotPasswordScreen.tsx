/**
 * /forgot-password (spec §2; issue 13): asks reset-password-request for an address. The server answers the same
 * for every address, so the page says a link is on its way "if the address has an account". Failure: §8
 * "Server not Accessible.".
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { mailRequestToView } from '../flowSelectors';
import { resetRequestLogic } from '../flows';
import '../i18n';
import './accounts.css';
import { validateEmail } from '../registerValidation';
import { Alert, Field } from './Field';

export default function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const [logic] = useState(resetRequestLogic);
  const ref = useActorRef(logic);
  const view = useSelector(ref, mailRequestToView, shallowEqual);
  const [email, setEmail] = useState('');
  const [attempted, setAttempted] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const error = attempted ? validateEmail(email) : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (view.sending) return;
    setAttempted(true);
    if (validateEmail(email)) return input.current?.focus();
    ref.send({ type: 'mailRequest.submit', email: email.trim() });
  };

  return (
    <div className="ui-card ui-card--raised accounts-form">
      {view.sent ? (
        <section className="ui-stack ui-stack--md" data-testid="forgot-sent">
          <h1 className="ui-title">{t('accounts.forgot.title')}</h1>
          <p className="ui-text" role="status">
            {t('accounts.forgot.sent', { email: view.email })}
          </p>
          <button
            type="button"
            className="ui-button ui-button--light"
            onClick={() => ref.send({ type: 'mailRequest.again' })}
          >
            {t('accounts.forgot.again')}
          </button>
          <Link className="ui-link" to="/login">
            {t('accounts.forgot.back')}
          </Link>
        </section>
      ) : (
        <form
          onSubmit={onSubmit}
          noValidate
          aria-labelledby="forgot-title"
          className="ui-stack ui-stack--md"
          data-testid="forgot-form"
        >
          <div>
            <h1 className="ui-title" id="forgot-title">
              {t('accounts.forgot.title')}
            </h1>
            <p className="ui-dimmed ui-small">{t('accounts.forgot.subtitle')}</p>
          </div>
          <Field label={t('accounts.forgot.email')} error={error ? t(error) : undefined}>
            {(ids) => (
              <input
                {...ids}
                ref={input}
                className="ui-input"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                required
                data-testid="forgot-email"
              />
            )}
          </Field>
          {view.error && <Alert testId="forgot-error">{view.error}</Alert>}
          <button
            type="submit"
            className="ui-button ui-button--full"
            aria-busy={view.sending}
            data-testid="forgot-submit"
          >
            {t('accounts.forgot.submit')}
          </button>
          <Link className="ui-link ui-small" to="/login">
            {t('accounts.forgot.back')}
          </Link>
        </form>
      )}
    </div>
  );
}
