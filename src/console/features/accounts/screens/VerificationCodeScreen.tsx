/**
 * /verification-code (spec §2, signed-out only; §4 two-factor verify; issue 13): the second sign-in step. It
 * drives the auth actor's twoFactor child (open while auth holds a login challenge): the code (authenticator
 * app, recovery code, or a mailed code from "send me a code by e-mail": PUT resend-verify-code). Status 1 signs
 * in (the route guard then leaves this signed-out-only page); status 0 shows the server's text. With no open
 * challenge (a reload, an expired sign-in) the page links back to /login.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import type { twoFactorMachine } from '../../../../../machines/accounts/twoFactor.machine';
import { useTwoFactorRef, useVerifyCodeView } from '../flowSelectors';
import '../i18n';
import './accounts.css';
import { useAuthRef } from '../selectors';
import { Alert, Field } from './Field';

export default function VerificationCodeScreen() {
  const { t } = useTranslation();
  const ref = useTwoFactorRef();
  if (!ref) {
    return (
      <section
        className="ui-card ui-card--raised ui-stack ui-stack--md accounts-form"
        data-testid="verify-closed"
      >
        <h1 className="ui-title">{t('accounts.verify.title')}</h1>
        <p className="ui-text">{t('accounts.verify.noChallenge')}</p>
        <Link className="ui-button" to="/login">
          {t('accounts.verify.cancel')}
        </Link>
      </section>
    );
  }
  return <VerifyForm actor={ref} />;
}

function VerifyForm({ actor }: { actor: ActorRefFrom<typeof twoFactorMachine> }) {
  const { t } = useTranslation();
  const auth = useAuthRef();
  const view = useVerifyCodeView(actor);
  const [code, setCode] = useState('');
  const [attempted, setAttempted] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const missing = attempted && code.trim() === '';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (view.verifying) return;
    setAttempted(true);
    if (code.trim() === '') return input.current?.focus();
    actor.send({ type: 'twoFactor.verify', code: code.trim() });
  };

  return (
    <div className="ui-card ui-card--raised accounts-form">
      <form
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="verify-title"
        className="ui-stack ui-stack--md"
        data-testid="verify-form"
      >
        <div>
          <h1 className="ui-title" id="verify-title">
            {t('accounts.verify.title')}
          </h1>
          <p className="ui-dimmed ui-small">{t('accounts.verify.subtitle')}</p>
        </div>
        <Field
          label={t('accounts.verify.code')}
          error={missing ? t('accounts.verify.codeRequired') : undefined}
        >
          {(ids) => (
            <input
              {...ids}
              ref={input}
              className="ui-input"
              inputMode="text"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              required
              autoFocus
              data-testid="verify-code"
            />
          )}
        </Field>
        {view.error && <Alert testId="verify-error">{view.error}</Alert>}
        {view.codeMailed && (
          <p className="ui-alert ui-alert--info" role="status" data-testid="verify-mailed">
            {t('accounts.verify.mailed')}
          </p>
        )}
        <button
          type="submit"
          className="ui-button ui-button--full"
          aria-busy={view.verifying}
          data-testid="verify-submit"
        >
          {t('accounts.verify.submit')}
        </button>
        <button
          type="button"
          className="ui-button ui-button--light"
          aria-busy={view.resending}
          onClick={() => actor.send({ type: 'twoFactor.resend' })}
          data-testid="verify-resend"
        >
          {t('accounts.verify.resend')}
        </button>
        <Link
          className="ui-link ui-small"
          to="/login"
          onClick={() => auth.send({ type: 'auth.twoFactor.cancel' })}
        >
          {t('accounts.verify.cancel')}
        </Link>
      </form>
    </div>
  );
}
