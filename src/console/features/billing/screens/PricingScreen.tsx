/**
 * /pricing (spec §2; public: readable signed in or out, issue 13 "plans from the server"): the free tier and
 * the plans the server sells, what each grants, the payment provider in use (the offline test provider is
 * named as such), and what happens when a licence ends. Buying links to /checkout?plan=… (signed out: through
 * /login). Plain HTML: signed out it renders in the auth-free layout.
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FREE_MAX_STREAMS, type Plan } from '../../../../protocol/billing';
import { useSession } from '../../accounts/selectors';
import { htmlLang, resolveLanguage } from '../../../i18n/language';
import '../i18n';
import { pricingLogic } from '../logic';
import { formatMoney, pricingToView } from '../selectors';
import './billing.css';

/** A plan's name and description in the interface language (the server's words for an unknown plan). */
export function usePlanText() {
  const { t, i18n } = useTranslation();
  return (plan: Pick<Plan, 'id' | 'name' | 'description'>) => ({
    name: i18n.exists(`billing.plans.${plan.id}.name`) ? t(`billing.plans.${plan.id}.name`) : plan.name,
    description: i18n.exists(`billing.plans.${plan.id}.description`)
      ? t(`billing.plans.${plan.id}.description`)
      : plan.description,
  });
}

/** Test ids: pricing, pricing-plan-<id>, pricing-provider. */
export default function PricingScreen() {
  const { t, i18n } = useTranslation();
  const [logic] = useState(pricingLogic);
  const ref = useActorRef(logic);
  const view = useSelector(ref, pricingToView, shallowEqual);
  const { signedIn } = useSession();
  const planText = usePlanText();
  const locale = htmlLang(resolveLanguage(i18n.language));

  return (
    <section className="ui-stack ui-stack--md billing-page" data-testid="pricing">
      <h1 className="ui-title">{t('billing.pricing.title')}</h1>
      <p className="ui-text">{t('billing.pricing.intro')}</p>
      {view.state === 'loading' && (
        <p className="ui-dimmed" role="status">
          {t('billing.pricing.loading')}
        </p>
      )}
      {view.state === 'failed' && (
        <div className="ui-alert" role="alert">
          {t('billing.pricing.failed', { error: view.error })}{' '}
          <button
            type="button"
            className="ui-button ui-button--xs"
            onClick={() => ref.send({ type: 'pricing.retry' })}
          >
            {t('billing.pricing.retry')}
          </button>
        </div>
      )}
      {view.provider && (
        <p className="ui-alert ui-alert--info" data-testid="pricing-provider">
          {view.provider === 'test' ? t('billing.pricing.testProvider') : t('billing.pricing.stripeProvider')}
        </p>
      )}
      {view.plans.length > 0 && (
        <ul className="billing-plans">
          {view.plans.map((plan) => {
            const text = planText(plan);
            const href = `/checkout?plan=${encodeURIComponent(plan.id)}`;
            return (
              <li key={plan.id} className="ui-card billing-plan" data-testid={`pricing-plan-${plan.id}`}>
                <h2 className="ui-text" style={{ fontSize: '1.125rem' }}>
                  {text.name}
                </h2>
                <p className="billing-price">{formatMoney(plan.price_cents, plan.currency, locale)}</p>
                <p className="ui-dimmed ui-small">
                  {plan.scope === 'feature'
                    ? t('billing.pricing.perAccount')
                    : t('billing.pricing.perDevice')}{' '}
                  ·{' '}
                  {plan.period_days > 0
                    ? t('billing.pricing.forDays', { count: plan.period_days })
                    : t('billing.pricing.noEnd')}
                </p>
                <p className="ui-text ui-small">{text.description}</p>
                <ul className="billing-grants ui-small">
                  {plan.max_streams !== null && (
                    <li>
                      {plan.scope === 'device'
                        ? t('billing.pricing.streamsOne', { count: plan.max_streams })
                        : t('billing.pricing.streams', { count: plan.max_streams })}
                    </li>
                  )}
                  {plan.features.map((f) => (
                    <li key={f}>{t(`billing.features.${f}`)}</li>
                  ))}
                </ul>
                {plan.scope === 'free' ? (
                  <p className="ui-dimmed ui-small">{t('billing.pricing.included')}</p>
                ) : signedIn ? (
                  <Link className="ui-button" to={href}>
                    {t('billing.pricing.buy', { plan: text.name })}
                  </Link>
                ) : (
                  <Link className="ui-button ui-button--light" to={`/login?next=${encodeURIComponent(href)}`}>
                    {t('billing.pricing.signInToBuy', { plan: text.name })}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <section className="ui-stack">
        <h2 className="ui-text" style={{ fontSize: '1.125rem' }}>
          {t('billing.pricing.endTitle')}
        </h2>
        <p className="ui-text">{t('billing.pricing.endText', { count: FREE_MAX_STREAMS })}</p>
      </section>
    </section>
  );
}
