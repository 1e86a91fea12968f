import type { Page } from "playwright-core";

/**
 * Waits until every finite CSS transition and animation of the page has ended (an infinite one, a
 * spinner's, never does and is left out). Checks that read painted colours or positions need it:
 * a toast fading in has a fraction of its opacity, a dialog zooming in is smaller than it will be,
 * and a user sees both settle a moment later. Waits two frames first, so that an animation the
 * last render started is among them.
 */
export async function animationsDone(page: Page): Promise<void> {
  // Two frames first: an animation that the last render started (a dialog just opened) is listed by
  // getAnimations only once it has begun, and checked before then the page would seem settled.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
  );
}
