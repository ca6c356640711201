/**
 * The card step of /checkout with the offline test provider (spec §3 "Selected card: card_id,
 * pay_with_new_card, card_number, card_month, card_year, card_cvc, is_saved"): a saved card or a new one
 * (saving keeps only brand, last 4 digits and expiry), the provider's test cards listed with what each does,
 * and the pay button with the amount.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { checkoutMachine } from '../../../../../machines/billing/checkout.machine';
import type { CardDraft } from '../../../../../machines/billing/checkoutDraft';
import { Field } from '../../public/screens/form';
import { checkoutToView } from '../selectors';

type CheckoutRef = ActorRefFrom<typeof checkoutMachine>;

const CARD_FIELDS = [
  ['card_number', 'cc-number', 'numeric', 23],
  ['card_month', 'cc-exp-month', 'numeric', 2],
  ['card_year', 'cc-exp-year', 'numeric', 4],
  ['card_cvc', 'cc-csc', 'numeric', 4],
] as const;

export function CardStep({ actor, amount }: { actor: CheckoutRef; amount: string }) {
  const { t } = useTranslation();
  const view = useSelector(actor, checkoutToView, shallowEqual);
  const saved = useSelector(actor, (s) => s.context.cards);
  const testCards = useSelector(actor, (s) => s.context.testCards);
  const draft = useSelector(actor, (s) => s.context.card);
  const change = (patch: Partial<CardDraft>) => actor.send({ type: 'card.change', patch });
  const err = (field: keyof CardDraft) => {
    const key = view.cardErrors[field];
    return key ? t(`billing.${key}`) : null;
  };
  return (
    <form
      className="ui-stack"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'card.pay' });
      }}
    >
      {saved.length > 0 && (
        <fieldset className="billing-fieldset">
          <legend>{t('billing.checkout.savedCards')}</legend>
          {saved.map((c) => (
            <label key={c.id} className="billing-choice">
              <input
                type="radio"
                name="card"
                checked={!draft.pay_with_new_card && draft.card_id === c.id}
                onChange={() => actor.send({ type: 'card.use', cardId: c.id })}
              />
              <span>
                {t('billing.checkout.cardOption', {
                  brand: c.brand,
                  last4: c.last4,
                  month: String(c.exp_month).padStart(2, '0'),
                  year: c.exp_year,
                })}
                {c.default && <span className="ui-dimmed"> ({t('billing.checkout.defaultMark')})</span>}
              </span>
            </label>
          ))}
          <label className="billing-choice">
            <input
              type="radio"
              name="card"
              checked={draft.pay_with_new_card}
              onChange={() => actor.send({ type: 'card.use', cardId: null })}
            />
            <span>{t('billing.checkout.newCard')}</span>
          </label>
          {view.cardErrors.card_id && <p className="ui-error">{err('card_id')}</p>}
        </fieldset>
      )}
      {draft.pay_with_new_card && (
        <div className="ui-stack" data-testid="checkout-card-fields">
          {CARD_FIELDS.map(([field, autoComplete, inputMode, maxLength]) => (
            <Field key={field} label={t(`billing.checkout.${field}`)} required error={err(field)}>
              {(ids) => (
                <input
                  {...ids}
                  className="ui-input"
                  autoComplete={autoComplete}
                  inputMode={inputMode}
                  maxLength={maxLength}
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
            {t('billing.checkout.saveCard')}
          </label>
        </div>
      )}
      {testCards.length > 0 && (
        <details className="ui-alert ui-alert--info" data-testid="checkout-test-cards" open>
          <summary className="ui-alert__title">{t('billing.checkout.testCardsTitle')}</summary>
          <p className="ui-text">{t('billing.checkout.testCardsIntro')}</p>
          <ul className="billing-grants">
            {testCards.map((c) => (
              <li key={c.number}>
                <code>{c.number}</code> ({c.brand}):{' '}
                {c.outcome === 'approved'
                  ? t('billing.checkout.approved')
                  : t('billing.checkout.declinedOutcome', { message: c.message })}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="billing-row">
        <button
          type="button"
          className="ui-button ui-button--light"
          onClick={() => actor.send({ type: 'step.back' })}
        >
          {t('billing.checkout.back')}
        </button>
        <button type="submit" className="ui-button" data-testid="checkout-pay">
          {t('billing.checkout.pay', { amount })}
        </button>
      </div>
    </form>
  );
}
