/**
 * Outgoing mail (issue 13 "Mail"), shared by the account flows and, later, the alarm channels.
 *
 * - `SMTP_URL` set (e.g. `smtps://user:pass@smtp.example.com:465`): nodemailer sends through it; no mailbox.
 * - otherwise (the default, development and demo): an embedded SMTP catcher on a loopback port (catcher.ts)
 *   receives every mail and the in-memory Mailbox keeps it for admins (GET /api/dev/mailbox, /dev/mailbox).
 *   `MAIL_CATCHER=0` turns the catcher off too (mail is then dropped with a log line).
 *
 * Environment: `SMTP_URL`, `MAIL_FROM` (default `Edge AI Console <no-reply@edge.local>`), `MAIL_CATCHER`,
 * `PUBLIC_URL` (the console's address in mailed links; see `publicUrlOf`).
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { isLoopbackHost, type ServerConfig } from '../config';
import { startSmtpCatcher, type SmtpCatcher } from './catcher';
import { Mailbox } from './mailbox';

/** One mail to send: plain text (links on lines of their own); `html` optional. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailSettings {
  smtpUrl: string | null;
  from: string;
  catcher: boolean;
  publicUrl: string | null;
}

export interface Mailer {
  /** The catcher's mailbox; null when mail goes to SMTP_URL (or nowhere). */
  readonly mailbox: Mailbox | null;
  /** Sends one mail. Rejects when the SMTP server refuses it or cannot be reached. */
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/** Reads the mail settings from the environment. */
export function mailSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): MailSettings {
  const smtpUrl = env.SMTP_URL?.trim() || null;
  return {
    smtpUrl,
    from: env.MAIL_FROM?.trim() || 'Edge AI Console <no-reply@edge.local>',
    catcher: smtpUrl === null && env.MAIL_CATCHER !== '0',
    publicUrl: env.PUBLIC_URL?.trim().replace(/\/+$/, '') || null,
  };
}

/** Creates a mailer; the catcher (when used) starts on the first send or `ready()`. */
export function createMailer(
  settings: MailSettings,
  log: FastifyBaseLogger,
): Mailer & { ready(): Promise<void> } {
  const mailbox = settings.catcher ? new Mailbox() : null;
  let catcher: Promise<SmtpCatcher> | null = null;
  let transport: Promise<Transporter | null> | null = null;
  let closed = false;
  const transporter = () =>
    (transport ??= (async () => {
      if (settings.smtpUrl) return nodemailer.createTransport(settings.smtpUrl);
      if (!mailbox) return null;
      const c = await (catcher ??= startSmtpCatcher(mailbox));
      return nodemailer.createTransport({ host: '127.0.0.1', port: c.port, secure: false, ignoreTLS: true });
    })());
  return {
    mailbox,
    async ready() {
      await transporter();
    },
    async send(mail) {
      if (closed) throw new Error('mailer closed');
      const t = await transporter();
      if (!t) {
        log.warn({ subject: mail.subject }, 'mail dropped: no SMTP_URL and MAIL_CATCHER=0');
        return;
      }
      await t.sendMail({ from: settings.from, ...mail });
    },
    async close() {
      closed = true;
      const t = await transport?.catch(() => null);
      t?.close();
      const c = await catcher?.catch(() => null);
      await c?.close();
    },
  };
}

/**
 * The console's address for mailed links: `PUBLIC_URL` when set; else, on a loopback-only server, the request's
 * own origin (a Host header there can only come from this machine); else `http://HOST:PORT`.
 */
export function publicUrlOf(settings: MailSettings, config: ServerConfig, request: FastifyRequest): string {
  if (settings.publicUrl) return settings.publicUrl;
  if (isLoopbackHost(config.host)) return `${request.protocol}://${request.host}`;
  return `http://${config.host}:${config.port}`;
}
