/**
 * The REST transport the public screens run their machines on: set once by the feature's `provide` when the
 * console system is created (the contact form works signed out).
 */
import type { Http } from '../../platform/http';

let current: Http | null = null;

export function setPublicHttp(http: Http): void {
  current = http;
}

/** @throws Error before the console system was created. */
export function publicHttp(): Http {
  if (!current) throw new Error('public: the console system has not started');
  return current;
}
