/**
 * /forgot-password/{token} (spec §2; issue 13): a new password, twice. Saved → /success; a used or expired link
 * → /expired; any other failure stays here with §8 "Server not Accessible.".
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { NEW_PASSWORD_MIN_LENGTH } from '../../../../protocol/accounts';
import { mailLinkToView } from '../flowSelectors';
import { mailLinkLogic } from '../flows';
import '../i18n';
import './accounts.css';
import { validateNewPassword } from '../registerValidation';
import { Alert, Field } from './Field';

export default function ResetPasswordScreen() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [logic] = useState(mailLinkLogic);
  const ref = useActorRef(logic, { input: { kind: 'reset', token } });
  const view = useSelector(ref, mailLinkToView, shallowEqual);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [attempted, setAttempted] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const second = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (view.phase === 'done') void navigate('/success', { replace: true });
    if (view.phase === 'expired') void navigate('/expired', { replace: true });
  }, [view.phase, navigate]);

  const pwError = attempted ? validateNewPassword(password) : null;
  const repeatError = attempted && !pwError && repeat !== password ? 'accounts.reset.mismatch' : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (view.phase === 'saving') return;
    setAttempted(true);
    if (validateNewPassword(password)) return first.current?.focus();
    if (repeat !== password) return second.current?.focus();
    ref.send({ type: 'mailLink.submit', password });
  };

  return (
    <div className="ui-card ui-card--raised accounts-form">
      <form
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="reset-title"
        className="ui-stack ui-stack--md"
        data-testid="reset-form"
      >
        <h1 className="ui-title" id="reset-title">
          {t('accounts.reset.title')}
        </h1>
        <Field
          label={t('accounts.reset.password')}
          error={pwError ? t(pwError, { min: NEW_PASSWORD_MIN_LENGTH }) : undefined}
          hint={t('accounts.register.passwordHint', { min: NEW_PASSWORD_MIN_LENGTH })}
        >
          {(ids) => (
            <input
              {...ids}
              ref={first}
              className="ui-input"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              required
              data-testid="reset-password"
            />
          )}
        </Field>
        <Field label={t('accounts.reset.repeat')} error={repeatError ? t(repeatError) : undefined}>
          {(ids) => (
            <input
              {...ids}
              ref={second}
              className="ui-input"
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.currentTarget.value)}
              required
              data-testid="reset-repeat"
            />
          )}
        </Field>
        {view.error && <Alert testId="reset-error">{view.error}</Alert>}
        <button
          type="submit"
          className="ui-button ui-button--full"
          aria-busy={view.phase === 'saving'}
          data-testid="reset-submit"
        >
          {t('accounts.reset.submit')}
        </button>
      </form>
    </div>
  );
}
