import type { Page } from "playwright-core";

/**
 * Waits until every finite CSS transition and animation of the page has ended (an infinite one, a
 * spinner's, never does and is left out). Checks that read painted colours or positions need it:
 * a toast fading in has a fraction of its opacity, a dialog zooming in is smaller than it will be,
 * and a user sees both settle a moment later.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
  );
}
