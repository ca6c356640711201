/**
 * The development mailbox (issue 13 "Mail"): with no `SMTP_URL` the server runs an embedded SMTP catcher and
 * keeps what it receives in memory; admins read it here (the console's /dev/mailbox). With `SMTP_URL` set there
 * is no catcher and `enabled` is false.
 */
import { z } from 'zod';
import { defineRoutes } from './route';

/** One caught mail. `links` are the http(s) URLs of its text part, in order. */
export const CaughtMail = z.object({
  id: z.string(),
  to: z.array(z.string()),
  from: z.string(),
  subject: z.string(),
  text: z.string(),
  links: z.array(z.string()),
  /** ISO 8601 time it was received. */
  received_at: z.string(),
});
export type CaughtMail = z.infer<typeof CaughtMail>;

/** GET dev/mailbox: newest first (at most 200 are kept). */
export const MailboxResponse = z.object({ enabled: z.boolean(), messages: z.array(CaughtMail) });
export type MailboxResponse = z.infer<typeof MailboxResponse>;

/** GET dev/mailbox-status: whether the catcher runs (the header shows its link then). */
export const MailboxStatusResponse = z.object({ enabled: z.boolean() });

export const mailRoutes = defineRoutes({
  'mail.mailbox': {
    method: 'GET',
    path: '/api/dev/mailbox',
    auth: 'admin',
    summary: 'Mails caught by the embedded SMTP catcher (development and demo; empty with SMTP_URL)',
    answer: MailboxResponse,
  },
  'mail.mailboxStatus': {
    method: 'GET',
    path: '/api/dev/mailbox-status',
    auth: 'admin',
    summary: 'Whether the embedded SMTP catcher runs',
    answer: MailboxStatusResponse,
  },
  'mail.clearMailbox': {
    method: 'DELETE',
    path: '/api/dev/mailbox',
    auth: 'admin',
    summary: 'Empties the caught mail',
    answer: z.object({ ok: z.literal(true), removed: z.number().int() }),
  },
});
