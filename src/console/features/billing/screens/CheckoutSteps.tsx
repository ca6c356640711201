/**
 * The three steps of /checkout (spec §3 selected card and selected address): the plan (and device), the billing
 * address (a saved one or typed fields, optionally saved) and, with the offline test provider, the card (a
 * saved one or a new card, optionally saved; the test cards listed). They send the checkout machine's events;
 * field errors come from the view once the user tried to go on.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import type { checkoutMachine } from '../../../../../machines/billing/checkout.machine';
import type { AddressDraft } from '../../../../../machines/billing/checkoutDraft';
import { Field } from '../../public/screens/form';
import { checkoutToView, formatDay, planProblem } from '../selectors';
import { usePlanText } from './PricingScreen';

type CheckoutRef = ActorRefFrom<typeof checkoutMachine>;

export function PlanStep({ actor, locale }: { actor: CheckoutRef; locale: string }) {
  const { t } = useTranslation();
  const view = useSelector(actor, checkoutToView, shallowEqual);
  const problem = useSelector(actor, planProblem);
  const devices = useSelector(actor, (s) => s.context.devices);
  const deviceId = useSelector(actor, (s) => s.context.deviceId);
  const planText = usePlanText();
  return (
    <form
      className="ui-stack"
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'plan.next' });
      }}
    >
      <fieldset className="billing-fieldset">
        <legend>{t('billing.checkout.choosePlan')}</legend>
        {view.plans.map((plan) => (
          <label key={plan.id} className="billing-choice">
            <input
              type="radio"
              name="plan"
              value={plan.id}
              checked={view.plan?.id === plan.id}
              onChange={() => actor.send({ type: 'plan.choose', planId: plan.id })}
            />
            <span>
              {planText(plan).name} <span className="ui-dimmed ui-small">{planText(plan).description}</span>
            </span>
          </label>
        ))}
        {problem === 'choosePlan' && (
          <p className="ui-error" role="alert">
            {t('billing.errors.choosePlan')}
          </p>
        )}
      </fieldset>
      {view.plan?.scope === 'device' &&
        (devices.length === 0 ? (
          <p className="ui-alert ui-alert--warning">
            {t('billing.checkout.noDevices')}{' '}
            <Link className="ui-link" to="/download">
              {t('billing.checkout.addDevice')}
            </Link>
          </p>
        ) : (
          <Field
            label={t('billing.checkout.device')}
            required
            error={problem === 'chooseDevice' ? t('billing.errors.chooseDevice') : null}
          >
            {(ids) => (
              <select
                {...ids}
                className="ui-input"
                value={deviceId ?? ''}
                onChange={(e) => actor.send({ type: 'plan.device', deviceId: e.currentTarget.value })}
              >
                <option value="" disabled>
                  {t('billing.checkout.chooseDeviceOption')}
                </option>
                {devices.map((d) => (
                  <option key={d.device_id} value={d.device_id}>
                    {t('billing.checkout.deviceOption', {
                      label: d.label,
                      id: d.device_id,
                      count: d.max_streams,
                    })}
                    {d.licensed_until
                      ? ` · ${t('billing.checkout.licensedUntil', { date: formatDay(d.licensed_until, locale) })}`
                      : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
      <div className="billing-row">
        <button type="submit" className="ui-button" data-testid="checkout-next">
          {t('billing.checkout.continue')}
        </button>
      </div>
    </form>
  );
}

const ADDRESS_FIELDS = [
  ['name', true, 'name'],
  ['company_name', false, 'organization'],
  ['address', true, 'street-address'],
  ['city', true, 'address-level2'],
  ['postal_code', false, 'postal-code'],
  ['country', true, 'country-name'],
  ['phone', false, 'tel'],
  ['identity_number', false, 'off'],
  ['tax_office', false, 'off'],
  ['tax_number', false, 'off'],
] as const;

export function AddressStep({ actor, amount }: { actor: CheckoutRef; amount: string }) {
  const { t } = useTranslation();
  const view = useSelector(actor, checkoutToView, shallowEqual);
  const saved = useSelector(actor, (s) => s.context.addresses);
  const draft = useSelector(actor, (s) => s.context.address);
  const change = (patch: Partial<AddressDraft>) => actor.send({ type: 'address.change', patch });
  const err = (field: keyof AddressDraft) => {
    const key = view.addressErrors[field];
    return key ? t(`billing.${key}`) : null;
  };
  return (
    <form
      className="ui-stack"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'address.next' });
      }}
    >
      {saved.length > 0 && (
        <fieldset className="billing-fieldset">
          <legend>{t('billing.checkout.savedAddresses')}</legend>
          {saved.map((a) => (
            <label key={a.id} className="billing-choice">
              <input
                type="radio"
                name="address"
                checked={draft.address_id === a.id}
                onChange={() => actor.send({ type: 'address.use', addressId: a.id })}
              />
              <span>
                {t('billing.checkout.addressOption', {
                  name: a.address_name || a.name,
                  name2: a.address,
                  city: a.city,
                  country: a.country,
                })}
                {a.default && <span className="ui-dimmed"> ({t('billing.checkout.defaultMark')})</span>}
              </span>
            </label>
          ))}
          <label className="billing-choice">
            <input
              type="radio"
              name="address"
              checked={draft.address_id === null}
              onChange={() => actor.send({ type: 'address.use', addressId: null })}
            />
            <span>{t('billing.checkout.newAddress')}</span>
          </label>
        </fieldset>
      )}
      {draft.address_id === null && (
        <div className="ui-stack" data-testid="checkout-address-fields">
          {ADDRESS_FIELDS.map(([field, required, autoComplete]) => (
            <Field
              key={field}
              label={t(`billing.checkout.fields.${field}`)}
              required={required}
              optionalText={t('billing.checkout.optional')}
              error={err(field)}
            >
              {(ids) => (
                <input
                  {...ids}
                  className="ui-input"
                  autoComplete={autoComplete}
                  value={draft[field]}
                  onChange={(e) => change({ [field]: e.currentTarget.value })}
                />
              )}
            </Field>
          ))}
          <label className="ui-check">
            <input
              type="checkbox"
              checked={draft.is_saved}
              onChange={(e) => change({ is_saved: e.currentTarget.checked })}
            />
            {t('billing.checkout.saveAddress')}
          </label>
          {draft.is_saved && (
            <Field label={t('billing.checkout.fields.address_name')} required error={err('address_name')}>
              {(ids) => (
                <input
                  {...ids}
                  className="ui-input"
                  value={draft.address_name}
                  onChange={(e) => change({ address_name: e.currentTarget.value })}
                />
              )}
            </Field>
          )}
        </div>
      )}
      {view.provider === 'stripe' && (
        <p className="ui-alert ui-alert--info">{t('billing.checkout.stripeNote')}</p>
      )}
      <div className="billing-row">
        <button
          type="button"
          className="ui-button ui-button--light"
          onClick={() => actor.send({ type: 'step.back' })}
        >
          {t('billing.checkout.back')}
        </button>
        <button type="submit" className="ui-button" data-testid="checkout-next">
          {view.provider === 'stripe'
            ? t('billing.checkout.toStripe', { amount })
            : t('billing.checkout.continue')}
        </button>
      </div>
    </form>
  );
}
