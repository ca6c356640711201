/**
 * The checkout form's drafts and their checks (spec §3 "Selected card" and "Selected address"), pure: the
 * checkout machine's guards and the screen's error texts read the same answers. Error values are i18n keys of
 * the billing feature (`billing.errors.*`).
 */
import { cardDigits, luhnValid, type SelectedAddress, type SelectedCard } from '../../src/protocol/billing';

/** §3 Selected address as the form holds it (all text; address_id null = typed fields). */
export interface AddressDraft {
  address_id: string | null;
  name: string;
  identity_number: string;
  company_name: string;
  tax_office: string;
  address: string;
  tax_number: string;
  phone: string;
  country: string;
  city: string;
  postal_code: string;
  address_name: string;
  is_saved: boolean;
}

/** §3 Selected card as the form holds it (month and year as typed). */
export interface CardDraft {
  card_id: string | null;
  pay_with_new_card: boolean;
  card_number: string;
  card_month: string;
  card_year: string;
  card_cvc: string;
  is_saved: boolean;
}

export const EMPTY_ADDRESS: AddressDraft = {
  address_id: null,
  name: '',
  identity_number: '',
  company_name: '',
  tax_office: '',
  address: '',
  tax_number: '',
  phone: '',
  country: '',
  city: '',
  postal_code: '',
  address_name: '',
  is_saved: false,
};

export const EMPTY_CARD: CardDraft = {
  card_id: null,
  pay_with_new_card: true,
  card_number: '',
  card_month: '',
  card_year: '',
  card_cvc: '',
  is_saved: false,
};

export type AddressErrors = Partial<Record<keyof AddressDraft, string>>;
export type CardErrors = Partial<Record<keyof CardDraft, string>>;

/** Missing or malformed address fields (a saved address needs none). */
export function addressErrors(d: AddressDraft): AddressErrors {
  if (d.address_id) return {};
  const errors: AddressErrors = {};
  for (const field of ['name', 'address', 'country', 'city'] as const) {
    if (!d[field].trim()) errors[field] = 'errors.required';
  }
  if (d.is_saved && !d.address_name.trim()) errors.address_name = 'errors.addressNameToSave';
  if (d.phone.trim() && !/^[+()\d\s./-]{4,40}$/.test(d.phone.trim())) errors.phone = 'errors.phone';
  return errors;
}

/** Card problems the form can see before paying (the provider checks the rest: expiry, test numbers). */
export function cardErrors(d: CardDraft): CardErrors {
  if (!d.pay_with_new_card) return d.card_id ? {} : { card_id: 'errors.chooseCard' };
  const errors: CardErrors = {};
  if (!luhnValid(cardDigits(d.card_number))) errors.card_number = 'errors.cardNumber';
  const month = Number(d.card_month);
  if (!/^\d{1,2}$/.test(d.card_month.trim()) || month < 1 || month > 12) errors.card_month = 'errors.month';
  if (!/^(\d{2}|\d{4})$/.test(d.card_year.trim())) errors.card_year = 'errors.year';
  if (!/^\d{3,4}$/.test(d.card_cvc.trim())) errors.card_cvc = 'errors.cvc';
  return errors;
}

const isEmpty = (o: object) => Object.keys(o).length === 0;
export const addressValid = (d: AddressDraft) => isEmpty(addressErrors(d));
export const cardValid = (d: CardDraft) => isEmpty(cardErrors(d));

/** The §3 selected address as the checkout call sends it. */
export function selectedAddressOf(d: AddressDraft): SelectedAddress {
  if (d.address_id) return { address_id: d.address_id };
  const { address_id: _id, ...fields } = d;
  return { ...fields, address_id: null };
}

/** The §3 selected card as the checkout call sends it; null when the provider takes no card fields. */
export function selectedCardOf(d: CardDraft, takesCards: boolean): SelectedCard | null {
  if (!takesCards) return null;
  if (!d.pay_with_new_card) return { pay_with_new_card: false, card_id: d.card_id };
  return {
    card_id: null,
    pay_with_new_card: true,
    card_number: cardDigits(d.card_number),
    card_month: Number(d.card_month),
    card_year: Number(d.card_year),
    card_cvc: d.card_cvc.trim(),
    is_saved: d.is_saved,
  };
}
