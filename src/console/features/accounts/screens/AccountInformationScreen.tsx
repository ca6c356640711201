/**
 * /profile/account-information (spec §2 Profile; issue 13): for now the account's address and name and the
 * "Two-factor authentication" panel (TOTP enrolment with QR code, recovery codes shown once, turning it off with
 * the password). The rest of the profile pages come with a later issue.
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { twoFactorSetupMachine } from '../../../../../machines/accounts/twoFactorSetup.machine';
import { twoFactorSetupToView } from '../flowSelectors';
import { twoFactorSetupLogic } from '../flows';
import '../i18n';
import './accounts.css';
import { useAuthRef } from '../selectors';
import { Alert, Field } from './Field';

export default function AccountInformationScreen() {
  const { t } = useTranslation();
  const user = useSelector(useAuthRef(), (s) => s.context.user);
  return (
    <div className="ui-stack ui-stack--md accounts-form" style={{ maxWidth: 640 }}>
      <h1 className="ui-title">{t('accounts.profile.title')}</h1>
      <section className="ui-card ui-stack" aria-labelledby="account-facts">
        <h2 className="ui-title" id="account-facts" style={{ fontSize: '1.1rem' }}>
          {user?.username}
        </h2>
        <p className="ui-text">
          {t('accounts.profile.email')}: <strong>{user?.email}</strong>
        </p>
      </section>
      <TwoFactorPanel email={user?.email ?? ''} />
    </div>
  );
}

function TwoFactorPanel({ email }: { email: string }) {
  const { t } = useTranslation();
  const [logic] = useState(twoFactorSetupLogic);
  const ref = useActorRef(logic);
  const view = useSelector(ref, twoFactorSetupToView, shallowEqual);
  return (
    <section
      className="ui-card ui-stack ui-stack--md"
      aria-labelledby="two-factor-title"
      data-testid="two-factor"
    >
      <h2 className="ui-title" id="two-factor-title" style={{ fontSize: '1.1rem' }}>
        {t('accounts.twoFactor.title')}
      </h2>
      <p className="ui-dimmed ui-small">{t('accounts.twoFactor.intro')}</p>
      {view.phase === 'loading' && <p role="status">{t('accounts.twoFactor.loading')}</p>}
      {view.error && <Alert testId="two-factor-error">{view.error}</Alert>}
      {view.phase === 'failed' && (
        <button
          type="button"
          className="ui-button"
          onClick={() => ref.send({ type: 'twoFactorSetup.retry' })}
        >
          {t('accounts.twoFactor.retry')}
        </button>
      )}
      {(view.phase === 'off' || view.phase === 'starting') && (
        <>
          <p className="ui-text" data-testid="two-factor-off">
            {t('accounts.twoFactor.off')}
          </p>
          <button
            type="button"
            className="ui-button"
            aria-busy={view.phase === 'starting'}
            onClick={() => ref.send({ type: 'twoFactorSetup.start' })}
            data-testid="two-factor-start"
          >
            {t('accounts.twoFactor.start')}
          </button>
        </>
      )}
      {(view.phase === 'scanning' || view.phase === 'enabling') && view.pending && (
        <Enrol
          actor={ref}
          email={email}
          secret={view.pending.secret}
          qrSvg={view.pending.qrSvg}
          busy={view.busy}
        />
      )}
      {view.phase === 'showingCodes' && view.recoveryCodes && (
        <div className="ui-stack" data-testid="two-factor-codes">
          <h3 className="ui-text">
            <strong>{t('accounts.twoFactor.codesTitle')}</strong>
          </h3>
          <p className="ui-text">{t('accounts.twoFactor.codesBody')}</p>
          <ul aria-label={t('accounts.twoFactor.codesTitle')} style={{ fontFamily: 'monospace', columns: 2 }}>
            {view.recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <button
            type="button"
            className="ui-button"
            onClick={() => ref.send({ type: 'twoFactorSetup.done' })}
            data-testid="two-factor-codes-done"
          >
            {t('accounts.twoFactor.codesDone')}
          </button>
        </div>
      )}
      {(view.phase === 'on' || view.phase === 'disabling') && (
        <Disable actor={ref} left={view.recoveryCodesLeft} busy={view.busy} />
      )}
    </section>
  );
}

type SetupRef = ActorRefFrom<typeof twoFactorSetupMachine>;

function Enrol({
  actor,
  email,
  secret,
  qrSvg,
  busy,
}: {
  actor: SetupRef;
  email: string;
  secret: string;
  qrSvg: string;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy || code.trim() === '') return;
    actor.send({ type: 'twoFactorSetup.confirm', code: code.trim() });
  };
  return (
    <form onSubmit={onSubmit} noValidate className="ui-stack ui-stack--md" data-testid="two-factor-enrol">
      <p className="ui-text">{t('accounts.twoFactor.scan')}</p>
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`}
        alt={t('accounts.twoFactor.qrAlt', { email })}
        width={200}
        height={200}
        style={{ background: '#fff' }}
      />
      <p className="ui-text">
        {t('accounts.twoFactor.secret')}:{' '}
        <code data-testid="two-factor-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </code>
      </p>
      <Field label={t('accounts.twoFactor.code')}>
        {(ids) => (
          <input
            {...ids}
            className="ui-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            required
            data-testid="two-factor-code"
          />
        )}
      </Field>
      <div style={{ display: 'flex', gap: 8 }}>
        <button type="submit" className="ui-button" aria-busy={busy} data-testid="two-factor-confirm">
          {t('accounts.twoFactor.confirm')}
        </button>
        <button
          type="button"
          className="ui-button ui-button--light"
          onClick={() => actor.send({ type: 'twoFactorSetup.cancel' })}
        >
          {t('accounts.twoFactor.cancel')}
        </button>
      </div>
    </form>
  );
}

function Disable({ actor, left, busy }: { actor: SetupRef; left: number; busy: boolean }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy || password === '') return;
    actor.send({ type: 'twoFactorSetup.disable', password });
    setPassword('');
  };
  return (
    <form onSubmit={onSubmit} noValidate className="ui-stack ui-stack--md">
      <p className="ui-text" data-testid="two-factor-on">
        {t('accounts.twoFactor.on', { count: left })}
      </p>
      <Field label={t('accounts.twoFactor.password')}>
        {(ids) => (
          <input
            {...ids}
            className="ui-input"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            required
            data-testid="two-factor-password"
          />
        )}
      </Field>
      <button
        type="submit"
        className="ui-button ui-button--light"
        aria-busy={busy}
        data-testid="two-factor-disable"
      >
        {t('accounts.twoFactor.disable')}
      </button>
    </form>
  );
}
