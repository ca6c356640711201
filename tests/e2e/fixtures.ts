/**
 * The e2e suite's `test`: Playwright's, with the page's console warnings and errors (and uncaught page errors)
 * collected, and printed with the failure when a test fails (also attached as `browser-console`). The console
 * logs why a link, a channel or a stream did not open (e.g. "inference: start channel not open after …"); a
 * failure in CI is then explained in CI's own output. A test whose page had anything refused by the server's
 * Content-Security-Policy (src/server/securityHeaders.ts) fails, naming what was refused: every screen the
 * suite visits is checked against the policy. Everything else is re-exported from @playwright/test.
 */
import { test as base } from '@playwright/test';

export * from '@playwright/test';

/** Most console lines printed with a failure (the last ones). */
const PRINTED_LINES = 80;

export const test = base.extend({
  page: async ({ page }, provide, testInfo) => {
    const lines: string[] = [];
    const refused: string[] = [];
    const started = Date.now();
    const at = () => `+${((Date.now() - started) / 1000).toFixed(1)}s`;
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') lines.push(`${at()} ${m.type()} ${m.text()}`);
      if (m.type() === 'error' && /Content Security Policy/.test(m.text())) refused.push(m.text());
    });
    page.on('pageerror', (e) => lines.push(`${at()} pageerror ${e.message}`));
    await provide(page);
    if (refused.length > 0 && testInfo.status === testInfo.expectedStatus)
      throw new Error(`The page broke the Content-Security-Policy:\n${refused.join('\n')}`);
    if (testInfo.status !== testInfo.expectedStatus && lines.length > 0) {
      await testInfo.attach('browser-console', { body: lines.join('\n'), contentType: 'text/plain' });
      console.log(
        `Browser console of "${testInfo.title}" (${lines.length} lines, last ${PRINTED_LINES}):\n` +
          lines.slice(-PRINTED_LINES).join('\n'),
      );
    }
  },
});
