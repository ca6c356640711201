/** The agent's own version: package.json's `version` ('0.0.0' when it cannot be read). */
import { readFileSync } from 'node:fs';

export function agentVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
