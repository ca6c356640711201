/**
 * The REST transport the billing screens run their machines on: set once by the feature's `provide` when the
 * console system is created (so /pricing works signed out); screens reach neither the platform nor REST.
 */
import type { Http } from '../../platform/http';

let current: Http | null = null;

export function setBillingHttp(http: Http): void {
  current = http;
}

/** @throws Error before the console system was created. */
export function billingHttp(): Http {
  if (!current) throw new Error('billing: the console system has not started');
  return current;
}
