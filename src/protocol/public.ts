/**
 * The public pages' calls (spec §2 /contact, "External redirects: /docs, /blog, and /admin"; §6 "Signed-out
 * users see only public pages"; issue 13 "Public pages: /contact (a form that is stored and mailed)").
 *
 * POST contact: name, e-mail, subject, message — validated here, stored in `contact_messages`, mailed to the
 * address CONTACT_MAIL_TO names; rate-limited per client address. The external redirects' targets are the
 * server's settings DOCS_URL, BLOG_URL, ADMIN_SITE_URL (see src/server/routes/public.ts).
 */
import { z } from 'zod';
import { defineRoutes } from './route';

/** Field limits of the contact form, characters. */
export const CONTACT_LIMITS = { name: 120, email: 254, subject: 160, message: 4000, messageMin: 10 } as const;

/** Error codes the contact form's fields answer with (the console translates them). */
export const CONTACT_FIELD_ERRORS = {
  required: 'required',
  email: 'email',
  tooLong: 'tooLong',
  tooShort: 'tooShort',
} as const;

export const ContactBody = z
  .object({
    name: z.string().trim().min(1, 'required').max(CONTACT_LIMITS.name, 'tooLong'),
    email: z.string().trim().max(CONTACT_LIMITS.email, 'tooLong').email('email'),
    subject: z.string().trim().min(1, 'required').max(CONTACT_LIMITS.subject, 'tooLong'),
    message: z
      .string()
      .trim()
      .min(CONTACT_LIMITS.messageMin, 'tooShort')
      .max(CONTACT_LIMITS.message, 'tooLong'),
  })
  .strict();
export type ContactBody = z.input<typeof ContactBody>;

/** Field → error code of a contact form (empty when valid). Pure; the console checks before sending. */
export function contactProblems(form: ContactBody): Partial<Record<keyof ContactBody, string>> {
  const parsed = ContactBody.safeParse(form);
  if (parsed.success) return {};
  const problems: Partial<Record<keyof ContactBody, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof ContactBody | undefined;
    if (field && !problems[field]) {
      const known = Object.values(CONTACT_FIELD_ERRORS) as string[];
      problems[field] = known.includes(issue.message) ? issue.message : CONTACT_FIELD_ERRORS.required;
    }
  }
  return problems;
}

export const ContactResponse = z.object({ ok: z.literal(true), id: z.string() });

export const publicRoutes = defineRoutes({
  'public.contact': {
    method: 'POST',
    path: '/api/contact',
    auth: 'none',
    summary:
      'The contact form: stored, then mailed to the configured address. 429 when one address sends too many.',
    body: ContactBody,
    answer: ContactResponse,
    errors: [429],
  },
});
