/**
 * Accessibility check of a screen (WCAG 2.1 A and AA rules of axe-core): no violation of impact serious or
 * critical may remain. Failing, it lists each rule with its help text and the first offending nodes.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Runs axe-core on the page (or the part `include` selects) and expects no serious or critical violation. */
export async function expectAccessible(page: Page, include?: string): Promise<void> {
  // A dialog fading in blends its colours mid-way (white text at 99 % opacity on a red button measured 4.45:1
  // instead of 4.5:1): axe checks what the user sees once the finite transitions and animations have ended.
  // Endless ones (spinners, striped progress bars) are not waited for; after 5 s axe runs whatever is shown.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000, polling: 50 },
    )
    .catch(() => undefined);
  let builder = new AxeBuilder({ page }).withTags(WCAG_21_AA);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}
