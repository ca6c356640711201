/**
 * /profile/my-licences (spec §2 profile child "my-licences"; issue 13 "what an expired licence stops and how the
 * console says so"): the user's licences with their state (active, expiring soon, expired, revoked, starts
 * later), what each grants and for what, and renew links; a licence that lapsed recently is announced plainly
 * (the device is back on the free tier) with its renew link. Reads the long-lived `myLicences` actor; the
 * profile area's navigation (features/profile) sits on top, as on the other profile pages.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { htmlLang, resolveLanguage } from '../../../i18n/language';
import { ProfileNav } from '../../profile/screens/ProfileNav';
import '../i18n';
import { formatDay, renewHref, useMyLicences, useMyLicencesRef } from '../selectors';
import './billing.css';
import { forText, grantsText, periodText, StateBadge, usePlanName } from './LicenceParts';

/** Test ids: my-licences, my-licences-lapsed, licence-<id>. */
export default function MyLicencesScreen() {
  const { t, i18n } = useTranslation();
  const view = useMyLicences();
  const actor = useMyLicencesRef();
  const planName = usePlanName();
  const locale = htmlLang(resolveLanguage(i18n.language));
  useEffect(() => actor.send({ type: 'licences.refresh' }), [actor]);

  return (
    <section className="ui-stack ui-stack--md billing-page" data-testid="my-licences">
      <ProfileNav />
      <h1 className="ui-title">{t('billing.licences.title')}</h1>
      <p className="ui-text">{t('billing.licences.intro')}</p>
      {view.lapsed.map((l) => (
        <div key={l.id} className="ui-alert ui-alert--warning" role="status" data-testid="my-licences-lapsed">
          <strong className="ui-alert__title">{t('billing.licences.lapsedTitle')}</strong>
          {l.scope === 'device'
            ? t('billing.licences.lapsedDevice', {
                plan: planName(l),
                device: forText(l, t),
                date: formatDay(l.expires_at, locale),
                count: view.freeStreams,
              })
            : t('billing.licences.lapsedFeature', {
                plan: planName(l),
                date: formatDay(l.expires_at, locale),
                feature: l.features.map((f) => t(`billing.features.${f}`)).join('; '),
              })}{' '}
          <Link className="ui-link" to={renewHref(l)}>
            {t('billing.licences.renewLabel', { plan: planName(l) })}
          </Link>
        </div>
      ))}
      {view.state === 'loading' && view.licences.length === 0 && (
        <p className="ui-dimmed" role="status">
          {t('billing.licences.loading')}
        </p>
      )}
      {view.state === 'failed' && (
        <div className="ui-alert" role="alert">
          {t('billing.licences.failed', { error: view.error })}{' '}
          <button
            type="button"
            className="ui-button ui-button--xs"
            onClick={() => actor.send({ type: 'licences.refresh' })}
          >
            {t('billing.licences.retry')}
          </button>
        </div>
      )}
      {view.state === 'ready' && view.licences.length === 0 && (
        <p className="ui-text">{t('billing.licences.empty')}</p>
      )}
      {view.licences.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="billing-table">
            <caption className="ui-small ui-dimmed" style={{ textAlign: 'left' }}>
              {t('billing.licences.caption')}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('billing.licences.plan')}</th>
                <th scope="col">{t('billing.licences.for')}</th>
                <th scope="col">{t('billing.licences.grants')}</th>
                <th scope="col">{t('billing.licences.state')}</th>
                <th scope="col">{t('billing.licences.period')}</th>
                <th scope="col">{t('billing.licences.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {view.licences.map((l) => (
                <tr key={l.id} data-testid={`licence-${l.id}`} data-state={l.state}>
                  <td>
                    {planName(l)}
                    <br />
                    <span className="ui-dimmed ui-small">{t(`billing.licences.source.${l.source}`)}</span>
                  </td>
                  <td>{forText(l, t)}</td>
                  <td>{grantsText(l, t)}</td>
                  <td>
                    <StateBadge state={l.state} />
                  </td>
                  <td>{periodText(l, locale)}</td>
                  <td>
                    {l.state !== 'revoked' && l.state !== 'scheduled' && (
                      <Link
                        className="ui-link"
                        to={renewHref(l)}
                        aria-label={t('billing.licences.renewLabel', { plan: planName(l) })}
                      >
                        {t('billing.licences.renew')}
                      </Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="ui-text ui-small">{t('billing.licences.free', { count: view.freeStreams })}</p>
      <p>
        <Link className="ui-link" to="/pricing">
          {t('billing.licences.toPricing')}
        </Link>
      </p>
    </section>
  );
}
