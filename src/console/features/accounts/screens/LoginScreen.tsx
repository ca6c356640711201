/**
 * /login (§2 auth-free layout, signed-out only). §5 form texts: email and password required, password
 * minimum length, terms agreement required; server errors from the auth machine (§8: 'The login detail is
 * incorrect', 'Login failed. Please try again.', 'Servers are unavailable.'). Status 1 (confirm mail) is a
 * dialog emitted by the auth machine and shown by the root shell's dialog slot. After sign-in the route
 * guard sends the user where they were going (?next=…).
 *
 * Two-factor accounts (login status 3, issue 13): once auth holds the challenge the form goes on to
 * /verification-code (keeping ?next).
 *
 * Demo mode: the auth actor reads GET /api/demo-account while signed out; the form shows it from the snapshot.
 *
 * Plain, accessible HTML (shell/plain.css, login.css) rather than Mantine: /login is the console's first
 * page and must stay small (the issue's /login JavaScript budget). Every field has a visible label; an
 * invalid field has aria-invalid and aria-describedby pointing at its error; the server error is an alert.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuthRef, useDemoAccount, useLoginFacts } from '../selectors';
import { validateLogin, type LoginFormErrors } from '../validation';
import './login.css';

export default function LoginScreen() {
  const { t } = useTranslation();
  const auth = useAuthRef();
  const { submitting, error, twoFactor } = useLoginFacts();
  const navigate = useNavigate();
  const { search } = useLocation();
  // Set when this form sends: only its own sign-in moves on to the second step (not a Back to /login).
  const sent = useRef(false);
  useEffect(() => {
    if (!twoFactor || !sent.current) return;
    sent.current = false;
    void navigate(`/verification-code${search}`);
  }, [twoFactor, navigate, search]);
  const demo = useDemoAccount();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const agreedRef = useRef<HTMLInputElement>(null);
  const termsErrorId = `${useId()}-terms-error`;

  // Errors show once the user has tried to submit, then follow the fields live.
  const errors: LoginFormErrors = attempted ? validateLogin({ email, password, agreed }) : {};

  const edited = () => {
    if (error) auth.send({ type: 'auth.dismissError' });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return; // busy: the button stays focusable but does not send twice
    setAttempted(true);
    const found = validateLogin({ email, password, agreed });
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    if (found.agreed) return agreedRef.current?.focus();
    sent.current = true;
    auth.send({ type: 'auth.login', email: email.trim(), password });
  };

  const fillDemo = () => {
    if (!demo) return;
    setEmail(demo.email);
    setPassword(demo.password);
    edited();
  };

  const errorText = (key: string | undefined) => (key ? t(key) : undefined);

  return (
    <div className="ui-card ui-card--raised">
      <form
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="login-title"
        className="ui-stack ui-stack--md"
        data-testid="login-form"
      >
        <div>
          <h1 className="ui-title" id="login-title">
            {t('login.title')}
          </h1>
          <p className="ui-dimmed ui-small">{t('login.subtitle')}</p>
        </div>

        {demo && (
          <div
            className="ui-alert ui-alert--info"
            role="note"
            aria-labelledby="demo-title"
            data-testid="demo-account"
          >
            <strong className="ui-alert__title" id="demo-title">
              {t('login.demoTitle')}
            </strong>
            <p className="ui-text">
              <strong>{demo.email}</strong> / <strong>{demo.password}</strong>
            </p>
            <button
              type="button"
              className="ui-button ui-button--light ui-button--xs login-demo-use"
              onClick={fillDemo}
              data-testid="use-demo"
            >
              {t('login.demoUse')}
            </button>
          </div>
        )}

        <Field label={t('login.email')} error={errorText(errors.email)}>
          {(ids) => (
            <input
              {...ids}
              ref={emailRef}
              className="ui-input"
              type="email"
              name="email"
              autoComplete="username"
              value={email}
              onChange={(e) => {
                setEmail(e.currentTarget.value);
                edited();
              }}
              required
              data-testid="login-email"
            />
          )}
        </Field>

        <Field label={t('login.password')} error={errorText(errors.password)}>
          {(ids) => (
            <PasswordField
              ids={ids}
              inputRef={passwordRef}
              value={password}
              onChange={(value) => {
                setPassword(value);
                edited();
              }}
            />
          )}
        </Field>

        <div className="ui-field">
          <label className="ui-check">
            <input
              ref={agreedRef}
              type="checkbox"
              name="terms"
              checked={agreed}
              onChange={(e) => setAgreed(e.currentTarget.checked)}
              aria-invalid={errors.agreed ? true : undefined}
              aria-describedby={errors.agreed ? termsErrorId : undefined}
              required
              data-testid="login-terms"
            />
            <span>
              {t('login.agree')}{' '}
              <Link className="ui-link" to="/policies/terms-conditions" target="_blank" rel="noopener">
                {t('login.terms')}
              </Link>
            </span>
          </label>
          {errors.agreed && (
            <p className="ui-error login-check-error" id={termsErrorId}>
              {t(errors.agreed)}
            </p>
          )}
        </div>

        {error && (
          <div className="ui-alert" role="alert" data-testid="login-error">
            {error}
          </div>
        )}

        <button
          type="submit"
          className="ui-button ui-button--full"
          aria-busy={submitting}
          aria-disabled={submitting || undefined}
          data-testid="login-submit"
        >
          {t('login.submit')}
        </button>

        <div className="login-links ui-small">
          <Link className="ui-link" to="/register">
            {t('login.register')}
          </Link>
          <Link className="ui-link" to="/forgot-password">
            {t('login.forgot')}
          </Link>
        </div>
      </form>
    </div>
  );
}

/** The ids a field's control needs: its own id and, while invalid, aria-invalid + aria-describedby. */
interface ControlIds {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** A labelled form field with a required mark and its error line (linked to the control). */
function Field({
  label,
  error,
  children,
}: {
  label: string;
  error: string | undefined;
  children: (ids: ControlIds) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="ui-field">
      <label className="ui-label" htmlFor={id}>
        {label}
        <span className="ui-required" aria-hidden="true">
          *
        </span>
      </label>
      {children(error ? { id, 'aria-invalid': true, 'aria-describedby': errorId } : { id })}
      {error && (
        <p className="ui-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The password input with a show/hide toggle (a real button, announced by its label and pressed state). */
function PasswordField({
  ids,
  inputRef,
  value,
  onChange,
}: {
  ids: ControlIds;
  inputRef: Ref<HTMLInputElement>;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <div className="login-password">
      <input
        {...ids}
        ref={inputRef}
        className="ui-input"
        type={visible ? 'text' : 'password'}
        name="password"
        autoComplete="current-password"
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        required
        data-testid="login-password"
      />
      <button
        type="button"
        className="login-password__toggle"
        aria-label={t('login.showPassword')}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
          <path
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z"
          />
          <circle
            cx="12"
            cy="12"
            r="3"
            fill={visible ? 'currentColor' : 'none'}
            stroke="currentColor"
            strokeWidth="2"
          />
        </svg>
      </button>
    </div>
  );
}
