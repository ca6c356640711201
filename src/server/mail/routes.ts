/**
 * The development mailbox's routes (src/protocol/mail.ts): admins only, and only while the embedded catcher runs
 * (no SMTP_URL); otherwise `enabled: false` and no messages.
 */
import type { mailRoutes } from '../../protocol/mail';
import type { HandlersOf } from '../routes/register';
import { mailerOf } from './index';

export const mailHandlers: HandlersOf<typeof mailRoutes> = (ctx, app) => {
  const { mailer } = mailerOf(ctx, app);
  return {
    'mail.mailbox': async () => ({
      enabled: mailer.mailbox !== null,
      messages: mailer.mailbox?.list() ?? [],
    }),
    'mail.mailboxStatus': async () => ({ enabled: mailer.mailbox !== null }),
    'mail.clearMailbox': async () => ({ ok: true as const, removed: mailer.mailbox?.clear() ?? 0 }),
  };
};
