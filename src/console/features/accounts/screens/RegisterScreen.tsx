/**
 * /register (spec §2 auth-free layout; issue 13): e-mail, name, password (NEW_PASSWORD_MIN_LENGTH), terms
 * agreement required, and a reCAPTCHA widget only when the server configures one (register-config; off by
 * default). The register machine sends it; once sent the page goes to /success-register with the address.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { shallowEqual } from '@xstate/react';
import { NEW_PASSWORD_MIN_LENGTH } from '../../../../protocol/accounts';
import { registerToView } from '../flowSelectors';
import { registerLogic } from '../flows';
import '../i18n';
import './accounts.css';
import { validateRegister, type RegisterFormErrors } from '../registerValidation';
import { Alert, Field } from './Field';
import { Recaptcha } from './Recaptcha';

export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [logic] = useState(registerLogic);
  const ref = useActorRef(logic);
  const view = useSelector(ref, registerToView, shallowEqual);
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const refs = {
    email: useRef<HTMLInputElement>(null),
    username: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    agreed: useRef<HTMLInputElement>(null),
  };

  useEffect(() => {
    if (view.sent) void navigate('/success-register', { state: { email: email.trim() } });
  }, [view.sent, navigate, email]);

  const values = { email, username, password, agreed };
  const errors: RegisterFormErrors = attempted ? validateRegister(values) : {};
  const text = (key: string | undefined) => (key ? t(key, { min: NEW_PASSWORD_MIN_LENGTH }) : undefined);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (view.submitting || view.loading) return;
    setAttempted(true);
    const found = validateRegister(values);
    const first = (['email', 'username', 'password', 'agreed'] as const).find((k) => found[k]);
    if (first) return refs[first].current?.focus();
    if (view.recaptchaSiteKey && !captcha) return;
    ref.send({
      type: 'register.submit',
      form: {
        email: email.trim(),
        username: username.trim(),
        password,
        ...(captcha ? { recaptcha: captcha } : {}),
      },
    });
  };

  return (
    <div className="ui-card ui-card--raised accounts-form">
      <form
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="register-title"
        className="ui-stack ui-stack--md"
        data-testid="register-form"
      >
        <div>
          <h1 className="ui-title" id="register-title">
            {t('accounts.register.title')}
          </h1>
          <p className="ui-dimmed ui-small">{t('accounts.register.subtitle')}</p>
        </div>
        <Field label={t('accounts.register.email')} error={text(errors.email)}>
          {(ids) => (
            <input
              {...ids}
              ref={refs.email}
              className="ui-input"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              required
              data-testid="register-email"
            />
          )}
        </Field>
        <Field label={t('accounts.register.username')} error={text(errors.username)}>
          {(ids) => (
            <input
              {...ids}
              ref={refs.username}
              className="ui-input"
              autoComplete="name"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              required
              data-testid="register-username"
            />
          )}
        </Field>
        <Field
          label={t('accounts.register.password')}
          error={text(errors.password)}
          hint={t('accounts.register.passwordHint', { min: NEW_PASSWORD_MIN_LENGTH })}
        >
          {(ids) => (
            <input
              {...ids}
              ref={refs.password}
              className="ui-input"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              required
              data-testid="register-password"
            />
          )}
        </Field>
        <div className="ui-field">
          <label className="ui-check">
            <input
              ref={refs.agreed}
              type="checkbox"
              checked={agreed}
              onChange={(e) => setAgreed(e.currentTarget.checked)}
              aria-invalid={errors.agreed ? true : undefined}
              aria-describedby={errors.agreed ? 'register-terms-error' : undefined}
              required
              data-testid="register-terms"
            />
            <span>
              {t('accounts.register.agree')}{' '}
              <Link className="ui-link" to="/policies/terms-conditions" target="_blank" rel="noopener">
                {t('accounts.register.terms')}
              </Link>
            </span>
          </label>
          {errors.agreed && (
            <p className="ui-error" id="register-terms-error">
              {text(errors.agreed)}
            </p>
          )}
        </div>
        {view.recaptchaSiteKey && (
          <div className="ui-field">
            <span className="ui-label">{t('accounts.register.captcha')}</span>
            <Recaptcha siteKey={view.recaptchaSiteKey} onAnswer={setCaptcha} />
            {attempted && !captcha && <p className="ui-error">{t('accounts.register.captchaRequired')}</p>}
          </div>
        )}
        {view.error && <Alert testId="register-error">{view.error}</Alert>}
        <button
          type="submit"
          className="ui-button ui-button--full"
          aria-busy={view.submitting}
          aria-disabled={view.submitting || view.loading || undefined}
          data-testid="register-submit"
        >
          {t('accounts.register.submit')}
        </button>
        <div className="ui-small">
          <Link className="ui-link" to="/login">
            {t('accounts.register.haveAccount')}
          </Link>
        </div>
      </form>
    </div>
  );
}
