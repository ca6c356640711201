/**
 * /admin-panel/licences (spec §2 admin-panel child "licences", §6 role admin; issue 13 "licences (grant,
 * revoke)"): every licence with its holder, searchable and paged; grant a plan's licence to a user (by e-mail;
 * a device id for per-device plans; a number of days or the plan's period); revoke one after a confirmation.
 * The server checks the admin role on each call and writes each grant and revoke to the audit log.
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { htmlLang, resolveLanguage } from '../../../i18n/language';
import '../../admin/i18n';
import { AdminNav } from '../../admin/screens/parts';
import { Field } from '../../public/screens/form';
import '../i18n';
import { adminLicencesLogic, pricingLogic } from '../logic';
import { adminLicencesToView, pricingToView } from '../selectors';
import './billing.css';
import { forText, grantsText, periodText, StateBadge, usePlanName } from './LicenceParts';
import { usePlanText } from './PricingScreen';

/** Test ids: admin-licences, admin-licences-grant, admin-licences-status, admin-licence-<id>. */
export default function AdminLicencesScreen() {
  const { t, i18n } = useTranslation();
  const [logic] = useState(adminLicencesLogic);
  const actor = useActorRef(logic);
  const view = useSelector(actor, adminLicencesToView, shallowEqual);
  const [plansLogic] = useState(pricingLogic);
  const plans = useSelector(useActorRef(plansLogic), pricingToView, shallowEqual).plans.filter(
    (p) => p.scope !== 'free',
  );
  const planName = usePlanName();
  const planText = usePlanText();
  const locale = htmlLang(resolveLanguage(i18n.language));
  const [search, setSearch] = useState('');
  const [grant, setGrant] = useState({ email: '', plan_id: '', device_id: '', days: '' });
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (view.state === 'confirmingRevoke') confirmRef.current?.focus();
  }, [view.state]);

  const chosen = plans.find((p) => p.id === grant.plan_id);
  const submitGrant = (e: FormEvent) => {
    e.preventDefault();
    actor.send({
      type: 'grant.submit',
      body: {
        email: grant.email.trim(),
        plan_id: grant.plan_id,
        device_id: chosen?.scope === 'device' ? grant.device_id.trim() || null : null,
        days: grant.days.trim() ? Number(grant.days) : null,
      },
    });
  };

  return (
    <section className="ui-stack ui-stack--md billing-page" data-testid="admin-licences">
      <AdminNav />
      <h1 className="ui-title">{t('billing.admin.title')}</h1>
      <p className="ui-text">
        {t('billing.admin.intro')}{' '}
        <Link className="ui-link" to="/admin-panel/audit-log">
          {t('billing.admin.auditLink')}
        </Link>
      </p>
      <div role="status" data-testid="admin-licences-status">
        {view.done && (
          <p className="ui-alert ui-alert--info">
            {view.done.kind === 'granted' ? t('billing.admin.granted') : t('billing.admin.revoked')}
          </p>
        )}
      </div>
      {view.error && view.state !== 'failed' && (
        <p className="ui-alert" role="alert">
          {view.error}
        </p>
      )}
      <div className="billing-row">
        <form
          className="billing-row"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'list.search', search });
          }}
        >
          <Field label={t('billing.admin.search')}>
            {(ids) => (
              <input
                {...ids}
                className="ui-input"
                type="search"
                value={search}
                onChange={(e) => setSearch(e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit" className="ui-button ui-button--light" style={{ alignSelf: 'flex-end' }}>
            {t('billing.admin.searchButton')}
          </button>
        </form>
        {view.state !== 'granting' && (
          <button
            type="button"
            className="ui-button"
            style={{ alignSelf: 'flex-end' }}
            onClick={() => actor.send({ type: 'grant.open' })}
          >
            {t('billing.admin.grant')}
          </button>
        )}
      </div>
      {view.state === 'granting' && (
        <form
          className="ui-card ui-stack"
          onSubmit={submitGrant}
          aria-labelledby="grant-title"
          data-testid="admin-licences-grant"
        >
          <h2 id="grant-title" className="ui-text" style={{ fontSize: '1.125rem' }}>
            {t('billing.admin.grantTitle')}
          </h2>
          <Field label={t('billing.admin.email')} required>
            {(ids) => (
              <input
                {...ids}
                className="ui-input"
                type="email"
                required
                value={grant.email}
                onChange={(e) => setGrant({ ...grant, email: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field label={t('billing.admin.plan')} required>
            {(ids) => (
              <select
                {...ids}
                className="ui-input"
                required
                value={grant.plan_id}
                onChange={(e) => setGrant({ ...grant, plan_id: e.currentTarget.value })}
              >
                <option value="" disabled>
                  {t('billing.checkout.choosePlan')}
                </option>
                {plans.map((p) => (
                  <option key={p.id} value={p.id}>
                    {planText(p).name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {chosen?.scope === 'device' && (
            <Field label={t('billing.admin.deviceId')} required>
              {(ids) => (
                <input
                  {...ids}
                  className="ui-input"
                  required
                  value={grant.device_id}
                  onChange={(e) => setGrant({ ...grant, device_id: e.currentTarget.value })}
                />
              )}
            </Field>
          )}
          <Field label={t('billing.admin.days')} optionalText={t('billing.checkout.optional')}>
            {(ids) => (
              <input
                {...ids}
                className="ui-input"
                type="number"
                min={1}
                max={3660}
                value={grant.days}
                onChange={(e) => setGrant({ ...grant, days: e.currentTarget.value })}
              />
            )}
          </Field>
          <div className="billing-row">
            <button type="submit" className="ui-button" disabled={view.granting === 'sending'}>
              {t('billing.admin.submitGrant')}
            </button>
            <button
              type="button"
              className="ui-button ui-button--light"
              onClick={() => actor.send({ type: 'grant.cancel' })}
            >
              {t('billing.admin.cancel')}
            </button>
          </div>
        </form>
      )}
      {view.state === 'confirmingRevoke' && view.target && (
        <div
          className="ui-alert ui-alert--warning ui-stack"
          role="alertdialog"
          aria-labelledby="revoke-title"
          aria-describedby="revoke-text"
        >
          <strong id="revoke-title" className="ui-alert__title">
            {t('billing.admin.revokeTitle')}
          </strong>
          <p id="revoke-text" className="ui-text">
            {t('billing.admin.revokeConfirm', { plan: view.target.plan, email: view.target.email })}
          </p>
          <div className="billing-row">
            <button
              ref={confirmRef}
              type="button"
              className="ui-button"
              onClick={() => actor.send({ type: 'revoke.confirm' })}
            >
              {t('billing.admin.confirmRevoke')}
            </button>
            <button
              type="button"
              className="ui-button ui-button--light"
              onClick={() => actor.send({ type: 'revoke.cancel' })}
            >
              {t('billing.admin.cancel')}
            </button>
          </div>
        </div>
      )}
      {view.state === 'loading' && view.licences.length === 0 && (
        <p className="ui-dimmed" role="status">
          {t('billing.admin.loading')}
        </p>
      )}
      {view.state === 'failed' && (
        <div className="ui-alert" role="alert">
          {t('billing.admin.failed', { error: view.error })}{' '}
          <button
            type="button"
            className="ui-button ui-button--xs"
            onClick={() => actor.send({ type: 'list.retry' })}
          >
            {t('billing.admin.retry')}
          </button>
        </div>
      )}
      {view.state !== 'loading' && view.state !== 'failed' && view.licences.length === 0 && (
        <p className="ui-text">{t('billing.admin.empty')}</p>
      )}
      {view.licences.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="billing-table" aria-busy={view.busy}>
            <caption className="ui-small ui-dimmed" style={{ textAlign: 'left' }}>
              {t('billing.admin.total', { count: view.total })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('billing.admin.holder')}</th>
                <th scope="col">{t('billing.licences.plan')}</th>
                <th scope="col">{t('billing.licences.for')}</th>
                <th scope="col">{t('billing.licences.grants')}</th>
                <th scope="col">{t('billing.licences.state')}</th>
                <th scope="col">{t('billing.licences.period')}</th>
                <th scope="col">{t('billing.admin.source')}</th>
                <th scope="col">{t('billing.licences.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {view.licences.map((l) => (
                <tr key={l.id} data-testid={`admin-licence-${l.id}`} data-state={l.state}>
                  <td>{l.user_email}</td>
                  <td>{planName(l)}</td>
                  <td>{forText(l, t)}</td>
                  <td>{grantsText(l, t)}</td>
                  <td>
                    <StateBadge state={l.state} />
                  </td>
                  <td>{periodText(l, locale)}</td>
                  <td>{t(`billing.licences.source.${l.source}`)}</td>
                  <td>
                    {l.state !== 'revoked' && l.state !== 'expired' && (
                      <button
                        type="button"
                        className="ui-button ui-button--xs ui-button--light"
                        aria-label={t('billing.admin.revokeLabel', {
                          plan: planName(l),
                          email: l.user_email,
                        })}
                        disabled={view.state !== 'ready'}
                        onClick={() => actor.send({ type: 'revoke.ask', id: l.id })}
                      >
                        {t('billing.admin.revoke')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {view.pages > 1 && (
        <nav
          className="billing-row"
          aria-label={t('billing.admin.pageOf', { page: view.page, pages: view.pages })}
        >
          <button
            type="button"
            className="ui-button ui-button--xs ui-button--light"
            disabled={view.page <= 1}
            onClick={() => actor.send({ type: 'list.page', page: view.page - 1 })}
          >
            {t('billing.admin.previous')}
          </button>
          <span className="ui-small">
            {t('billing.admin.pageOf', { page: view.page, pages: view.pages })}
          </span>
          <button
            type="button"
            className="ui-button ui-button--xs ui-button--light"
            disabled={view.page >= view.pages}
            onClick={() => actor.send({ type: 'list.page', page: view.page + 1 })}
          >
            {t('billing.admin.next')}
          </button>
        </nav>
      )}
    </section>
  );
}
