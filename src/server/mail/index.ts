/**
 * Mail for the whole server (issue 13 "Mail"): `mailerOf(ctx, app)` gives the one Mailer of a running server,
 * created on first use and closed with the app. Features call it; they never build transports themselves.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { createMailer, mailSettingsFromEnv, type Mailer, type MailSettings } from './mailer';

export { Mailbox, linksOf, MAILBOX_LIMIT } from './mailbox';
export {
  publicUrlOf,
  mailSettingsFromEnv,
  type Mailer,
  type MailSettings,
  type OutgoingMail,
} from './mailer';

const mailers = new WeakMap<ServerContext, { mailer: Mailer; settings: MailSettings }>();

/** The server's mailer and its settings (from the environment), created once per server context. */
export function mailerOf(
  ctx: ServerContext,
  app: FastifyInstance,
): { mailer: Mailer; settings: MailSettings } {
  let entry = mailers.get(ctx);
  if (!entry) {
    const settings = mailSettingsFromEnv();
    const mailer = createMailer(settings, app.log);
    entry = { mailer, settings };
    mailers.set(ctx, entry);
    app.addHook('onClose', async () => mailer.close());
    // Start the catcher now so the first mail does not wait for it; a failure is logged and retried on send.
    void mailer.ready().catch((err: unknown) => app.log.error({ err }, 'mail catcher did not start'));
  }
  return entry;
}
