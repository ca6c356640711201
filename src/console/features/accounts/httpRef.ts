/**
 * The REST transport the accounts flows' screens run their machines on: set once by `provideAccounts` when the
 * console system is created (screens reach neither the platform nor REST themselves).
 */
import type { Http } from '../../platform/http';

let current: Http | null = null;

export function setAccountsHttp(http: Http): void {
  current = http;
}

/** @throws Error before the console system was created. */
export function accountsHttp(): Http {
  if (!current) throw new Error('accounts: the console system has not started');
  return current;
}
