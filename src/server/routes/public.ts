/**
 * The public pages' server side (src/protocol/public.ts; spec §2 /contact and the external redirects):
 *   POST contact  → stored in contact_messages, then mailed to CONTACT_MAIL_TO (default support@edge.local)
 *                   through the server's mailer (src/server/mail; the dev mailbox catches it by default);
 *                   rate-limited per client address (CONTACT_RATE_LIMIT_PER_MIN, default 5). A signed-in
 *                   sender is linked; one holding the priority-support licence is flagged "[Priority]".
 *                   The message is stored even when mailing fails (logged; mailed_at stays null).
 *   GET /docs, /blog, /admin → 302 to DOCS_URL, BLOG_URL, ADMIN_SITE_URL when set (runtime settings, no
 *                   rebuild); unset, the console's own redirect (build-time VITE_* targets) answers as before.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { publicRoutes } from '../../protocol/public';
import { authenticateUser } from '../auth/guard';
import { contactMessages } from '../db/schema';
import { mailerOf } from '../mail';
import { hasFeature } from '../billing/licences';
import type { HandlersOf } from './register';

/** Settings of the public pages, from the environment. */
export interface PublicSettings {
  contactTo: string;
  contactRatePerMin: number;
  /** §2 external redirects by path; only the configured ones. */
  externals: Partial<Record<'/docs' | '/blog' | '/admin', string>>;
}

export function publicSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): PublicSettings {
  const rate = Number(env.CONTACT_RATE_LIMIT_PER_MIN);
  const externals: PublicSettings['externals'] = {};
  const urls = { '/docs': env.DOCS_URL, '/blog': env.BLOG_URL, '/admin': env.ADMIN_SITE_URL } as const;
  for (const [path, url] of Object.entries(urls) as [keyof typeof urls, string | undefined][]) {
    if (url?.trim()) externals[path] = url.trim();
  }
  return {
    contactTo: env.CONTACT_MAIL_TO?.trim() || 'support@edge.local',
    contactRatePerMin: Number.isInteger(rate) && rate > 0 ? rate : 5,
    externals,
  };
}

function registerExternalRedirects(app: FastifyInstance, settings: PublicSettings): void {
  for (const [path, url] of Object.entries(settings.externals)) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) => reply.redirect(url, 302));
  }
}

export const publicHandlers: HandlersOf<typeof publicRoutes> = (ctx, app) => {
  const settings = publicSettingsFromEnv();
  const { mailer } = mailerOf(ctx, app);
  const optionalUser = authenticateUser(ctx);
  registerExternalRedirects(app, settings);

  return {
    'public.contact': {
      rateLimit: { hook: 'preHandler', max: settings.contactRatePerMin, timeWindow: 60_000 },
      handle: async ({ body }, request, reply) => {
        // A signed-in sender is recognised; a missing or bad token just means "signed out" here.
        let userId: string | null = null;
        if (request.headers.authorization) {
          try {
            await optionalUser.call(app, request, reply);
            userId = request.user?.id ?? null;
          } catch {
            userId = null;
          }
        }
        const priority = userId !== null && (await hasFeature(ctx.db, userId, 'priority-support'));
        const [row] = await ctx.db
          .insert(contactMessages)
          .values({ ...body, userId, priority })
          .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
        if (!row) throw new Error('contact message insert returned nothing');
        try {
          await mailer.send({
            to: settings.contactTo,
            subject: `${priority ? '[Priority] ' : ''}Contact: ${body.subject.replace(/[\r\n]+/g, ' ')}`,
            text: [
              `From: ${body.name} <${body.email}>`,
              `Signed in: ${userId ? `yes (user ${userId})` : 'no'}`,
              `Received: ${row.createdAt.toISOString()}`,
              `Message id: ${row.id}`,
              '',
              body.message,
            ].join('\n'),
          });
          await ctx.db
            .update(contactMessages)
            .set({ mailedAt: new Date() })
            .where(eq(contactMessages.id, row.id));
        } catch (err) {
          request.log.error({ err }, 'contact message stored but not mailed');
        }
        return { ok: true as const, id: row.id };
      },
    },
  };
};
