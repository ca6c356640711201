/**
 * The embedded SMTP catcher (issue 13 "Mail"): an `smtp-server` on a loopback port that accepts every mail
 * (no AUTH, no STARTTLS, 1 MiB at most), parses it with `mailparser` and keeps it in a Mailbox. Used when no
 * `SMTP_URL` is configured, so every mail flow works with no set-up.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Mailbox } from './mailbox';

/** The largest mail the catcher accepts (bytes). */
export const CATCHER_MAX_BYTES = 1024 * 1024;

export interface SmtpCatcher {
  /** 127.0.0.1 port it listens on. */
  port: number;
  close(): Promise<void>;
}

const addresses = (a: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? '')).filter(Boolean);

/** Starts the catcher on 127.0.0.1 (`port` 0 = any free port). Rejects when it cannot listen. */
export function startSmtpCatcher(mailbox: Mailbox, port = 0): Promise<SmtpCatcher> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: CATCHER_MAX_BYTES,
    logger: false,
    banner: 'edge console mail catcher',
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = addresses(parsed.to);
          mailbox.add({
            to: to.length > 0 ? to : session.envelope.rcptTo.map((r) => r.address),
            from: addresses(parsed.from)[0] ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          callback();
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      // A client error after start (a broken connection) must not crash the server.
      server.on('error', () => {});
      const { port: bound } = server.server.address() as AddressInfo;
      resolve({ port: bound, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
