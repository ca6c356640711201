/**
 * Pure views of the public screens: the contact form machine's snapshot with the typed form → what the
 * screen shows (field errors only once the user tried to send), and the policy pages' list.
 */
import type { SnapshotFrom } from 'xstate';
import type { contactMachine } from '../../../../machines/public/contact.machine';
import { contactProblems, type ContactBody } from '../../../protocol/public';

export type ContactSnapshot = SnapshotFrom<typeof contactMachine>;

export interface ContactView {
  state: 'editing' | 'sending' | 'sent';
  /** Field → i18n key of its error (`public.contact.errors.*`). */
  errors: Partial<Record<keyof ContactBody, string>>;
  error: string | null;
}

export function contactToView(s: ContactSnapshot, form: ContactBody): ContactView {
  const problems = s.context.attempted && s.matches('editing') ? contactProblems(form) : {};
  return {
    state: s.value as ContactView['state'],
    errors: Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, `public.contact.errors.${v}`])),
    error: s.context.error,
  };
}

/** The five §2 policy pages, in the order of the spec. */
export const POLICY_SLUGS = [
  'privacy-policy',
  'cookie-policy',
  'terms-conditions',
  'user-guidelines',
  'legal-guidelines',
] as const;
export type PolicySlug = (typeof POLICY_SLUGS)[number];

/** The policy a path names ('/policies/cookie-policy' → 'cookie-policy'); privacy for anything else. */
export function policyOf(path: string): PolicySlug {
  const slug = path.split('/').filter(Boolean).pop() ?? '';
  return (POLICY_SLUGS as readonly string[]).includes(slug) ? (slug as PolicySlug) : 'privacy-policy';
}
