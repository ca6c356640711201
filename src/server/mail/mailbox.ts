/**
 * The development mailbox (issue 13 "Mail"): what the embedded SMTP catcher received, in memory, newest first,
 * at most `MAILBOX_LIMIT` mails (the oldest drop out). Lost when the server stops — it is a development aid,
 * not a store.
 */
import { randomUUID } from 'node:crypto';
import type { CaughtMail } from '../../protocol/mail';

/** Mails kept; older ones are dropped. */
export const MAILBOX_LIMIT = 200;

/** http(s) URLs in a text, in order, without trailing punctuation, each once. */
export function linksOf(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [];
  return [...new Set(found.map((u) => u.replace(/[.,;:!?]+$/, '')))];
}

export class Mailbox {
  private readonly mails: CaughtMail[] = [];
  private readonly waiters = new Set<() => void>();

  /** Adds one mail (id and links computed); returns it. */
  add(mail: Omit<CaughtMail, 'id' | 'links' | 'received_at'> & { received_at?: string }): CaughtMail {
    const caught: CaughtMail = {
      ...mail,
      id: randomUUID(),
      links: linksOf(mail.text),
      received_at: mail.received_at ?? new Date().toISOString(),
    };
    this.mails.unshift(caught);
    this.mails.length = Math.min(this.mails.length, MAILBOX_LIMIT);
    for (const wake of [...this.waiters]) wake();
    return caught;
  }

  /** Newest first. */
  list(): CaughtMail[] {
    return [...this.mails];
  }

  /** Removes every mail; returns how many there were. */
  clear(): number {
    const n = this.mails.length;
    this.mails.length = 0;
    return n;
  }

  /** Resolves with the newest mail to `address` once one matching `predicate` is there (tests), or rejects after `ms`. */
  waitFor(predicate: (mail: CaughtMail) => boolean, ms = 5000): Promise<CaughtMail> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.mails.find(predicate);
        if (!hit) return false;
        cleanup();
        resolve(hit);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error('no such mail arrived'));
      }, ms);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
      };
      const wake = () => void check();
      if (!check()) this.waiters.add(wake);
    });
  }
}
