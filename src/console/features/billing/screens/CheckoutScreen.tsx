/**
 * /checkout (spec §2, auth; §3 payment cards and addresses from §7 get-payment-cards and get-user-address, the
 * selected card and selected address; issue 13): the checkout machine's steps — plan (and device), billing
 * address, card (offline test provider only) — with a summary, then paid (the licence, a receipt mailed),
 * declined (the provider's message; nothing stored) or, with Stripe, its Checkout page. Query: `plan`,
 * `device` preselect (the pricing page's and renew links); `order` (+ `canceled`) is Stripe's return.
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { htmlLang, resolveLanguage } from '../../../i18n/language';
import '../i18n';
import { checkoutLogic } from '../logic';
import { checkoutToView, formatDay, formatMoney, useMyLicencesRef } from '../selectors';
import './billing.css';
import { CardStep } from './CardStep';
import { AddressStep, PlanStep } from './CheckoutSteps';
import { usePlanText } from './PricingScreen';

/** Test ids: checkout, checkout-state (data-state), checkout-paid, checkout-declined, checkout-summary. */
export default function CheckoutScreen() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const [logic] = useState(checkoutLogic);
  const actor = useActorRef(logic, {
    input: {
      planId: params.get('plan'),
      deviceId: params.get('device'),
      orderId: params.get('order'),
      canceled: params.get('canceled') === '1',
    },
  });
  const view = useSelector(actor, checkoutToView, shallowEqual);
  const result = useSelector(actor, (s) => s.context.result);
  const redirectUrl = useSelector(actor, (s) => s.context.redirectUrl);
  const device = useSelector(
    actor,
    (s) => s.context.devices.find((d) => d.device_id === s.context.deviceId) ?? null,
  );
  const licences = useMyLicencesRef();
  const planText = usePlanText();
  const locale = htmlLang(resolveLanguage(i18n.language));
  const heading = useRef<HTMLHeadingElement>(null);

  // Each new step or outcome moves focus to the heading, so keyboard and screen-reader users follow along.
  useEffect(() => heading.current?.focus(), [view.state]);
  useEffect(() => {
    if (view.state === 'paid') licences.send({ type: 'licences.refresh' });
  }, [view.state, licences]);
  useEffect(() => {
    if (view.state === 'redirecting' && redirectUrl) window.location.assign(redirectUrl);
  }, [view.state, redirectUrl]);

  const amount = view.plan ? formatMoney(view.plan.price_cents, view.plan.currency, locale) : '';
  const stepTitle =
    view.current >= 0 ? t(`billing.checkout.steps.${view.steps[view.current]}`) : t('billing.checkout.title');

  return (
    <section className="ui-stack ui-stack--md billing-page" data-testid="checkout">
      <h1 className="ui-title">{t('billing.checkout.title')}</h1>
      {view.current >= 0 && (
        <ol className="billing-steps" aria-label={t('billing.checkout.stepsLabel')}>
          {view.steps.map((step, i) => (
            <li key={step} aria-current={i === view.current ? 'step' : undefined}>
              {i + 1}. {t(`billing.checkout.steps.${step}`)}
            </li>
          ))}
        </ol>
      )}
      {view.notice === 'canceled' && (
        <p className="ui-alert ui-alert--info">{t('billing.checkout.canceled')}</p>
      )}
      <div className="billing-layout">
        <div className="ui-card ui-stack" data-testid="checkout-state" data-state={view.state}>
          <h2
            ref={heading}
            tabIndex={-1}
            className="ui-text"
            style={{ fontSize: '1.25rem', outline: 'none' }}
          >
            {view.current >= 0
              ? `${t('billing.checkout.stepOf', { n: view.current + 1, total: view.steps.length })}: ${stepTitle}`
              : stepTitle}
          </h2>
          {view.state === 'loading' && (
            <p className="ui-dimmed" role="status">
              {t('billing.checkout.loading')}
            </p>
          )}
          {view.state === 'loadFailed' && (
            <div className="ui-alert" role="alert">
              {t('billing.checkout.loadFailed', { error: view.error })}{' '}
              <button
                type="button"
                className="ui-button ui-button--xs"
                onClick={() => actor.send({ type: 'checkout.retry' })}
              >
                {t('billing.checkout.retry')}
              </button>
            </div>
          )}
          {view.state === 'plan' && <PlanStep actor={actor} locale={locale} />}
          {view.state === 'address' && <AddressStep actor={actor} amount={amount} />}
          {view.state === 'card' && <CardStep actor={actor} amount={amount} />}
          {view.state === 'paying' && (
            <p className="ui-dimmed" role="status">
              {t('billing.checkout.paying')}
            </p>
          )}
          {view.state === 'redirecting' && (
            <p role="status">
              <a className="ui-link" href={redirectUrl ?? '#'}>
                {t('billing.checkout.redirecting')}
              </a>
            </p>
          )}
          {(view.state === 'confirming' || view.state === 'waiting') && (
            <p className="ui-dimmed" role="status">
              {t('billing.checkout.confirming')}
            </p>
          )}
          {view.state === 'stillPending' && (
            <div className="ui-alert ui-alert--warning" role="status">
              {t('billing.checkout.stillPending')}{' '}
              <button
                type="button"
                className="ui-button ui-button--xs"
                onClick={() => actor.send({ type: 'checkout.retry' })}
              >
                {t('billing.checkout.checkAgain')}
              </button>
            </div>
          )}
          {view.state === 'declined' && (
            <div className="ui-stack" data-testid="checkout-declined">
              <div className="ui-alert" role="alert">
                <strong className="ui-alert__title">{t('billing.checkout.declinedTitle')}</strong>
                {view.error} {t('billing.checkout.declinedNothing')}
              </div>
              <div className="billing-row">
                <button type="button" className="ui-button" onClick={() => actor.send({ type: 'step.back' })}>
                  {view.provider === 'test'
                    ? t('billing.checkout.changeCard')
                    : t('billing.checkout.changeAddress')}
                </button>
              </div>
            </div>
          )}
          {view.state === 'paid' && (
            <div className="ui-stack" data-testid="checkout-paid">
              <div className="ui-alert ui-alert--info" role="status">
                <strong className="ui-alert__title">{t('billing.checkout.paidTitle')}</strong>
                {result
                  ? t('billing.checkout.paidText', {
                      plan: planText({
                        id: result.licence.plan_id,
                        name: result.licence.plan_name,
                        description: '',
                      }).name,
                      from: formatDay(result.licence.starts_at, locale),
                      to: formatDay(result.licence.expires_at, locale),
                    })
                  : t('billing.checkout.paidStripe')}{' '}
                {t('billing.checkout.receiptSent')}
              </div>
              <div className="billing-row">
                <Link className="ui-button" to="/profile/my-licences">
                  {t('billing.checkout.toLicences')}
                </Link>
                <button
                  type="button"
                  className="ui-button ui-button--light"
                  onClick={() => actor.send({ type: 'checkout.again' })}
                >
                  {t('billing.checkout.buyAnother')}
                </button>
              </div>
            </div>
          )}
        </div>
        {view.plan && (
          <aside
            className="ui-card ui-stack"
            aria-labelledby="checkout-summary-title"
            data-testid="checkout-summary"
          >
            <h2 id="checkout-summary-title" className="ui-text" style={{ fontSize: '1.125rem' }}>
              {t('billing.checkout.summary')}
            </h2>
            <p className="ui-text">{planText(view.plan).name}</p>
            <p className="ui-dimmed ui-small">
              {view.plan.scope === 'device'
                ? device
                  ? `${device.label} (${device.device_id})`
                  : t('billing.pricing.perDevice')
                : t('billing.checkout.forAccount')}{' '}
              · {t('billing.checkout.period', { count: view.plan.period_days })}
            </p>
            <p className="billing-price">
              {t('billing.checkout.total')}: {amount}
            </p>
            {view.provider === 'test' && <p className="ui-small">{t('billing.pricing.testProvider')}</p>}
          </aside>
        )}
      </div>
    </section>
  );
}
