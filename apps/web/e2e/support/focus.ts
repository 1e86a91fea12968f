import type { Locator, Page } from "playwright-core";
import { animationsDone } from "./animations";

/** The thinnest outline that counts as a visible focus indicator (px). */
const MIN_RING_WIDTH_PX = 2;
/** WCAG 1.4.11 (non-text contrast): the ring against the colour next to it. */
const MIN_RING_CONTRAST = 3;
/** How many Tab presses tabTo tries before giving up, unless told. */
const DEFAULT_MAX_PRESSES = 40;

/** How the focused element draws its focus, as computed in the page. */
export interface FocusRing {
  /** The focused element, e.g. 'button.btn "Upload"' or 'a.shell-nav-item "Management"'. */
  element: string;
  /** Whether the element matches :focus-visible (keyboard focus), or has focus on a part inside it. */
  focusVisible: boolean;
  /** Computed outline-style ('none' when there is no ring). */
  outlineStyle: string;
  /** Computed outline-width (px). */
  outlineWidth: number;
  /** Computed outline-offset (px); below 0 the ring is drawn inside the element. */
  outlineOffset: number;
  /** The ring's colour as rgb(), composited over the background when translucent. */
  outlineColor: string;
  /**
   * The colour the ring is drawn over, as rgb(): from the element itself when the ring is inside it
   * (negative offset), else from the element painted next to each side of the ring; walking up
   * ancestors, translucent backgrounds are composited down to the first opaque one (or the first
   * gradient's colour stops). Of all these, the one the ring contrasts least with.
   */
  background: string;
  /** The element whose background that is, e.g. 'aside.shell-sidebar' ('the page' when none is opaque). */
  backgroundFrom: string;
  /** The WCAG contrast ratio of outlineColor against background (1 to 21), rounded to 2 decimals. */
  contrast: number;
}

/**
 * Reads the focus indicator of the page's focused element: outline style, width, offset and
 * colour, the background behind the ring (see FocusRing.background) and their WCAG contrast
 * ratio, all computed in the page. Answers null when nothing is focused (the body has focus).
 */
async function focusRing(page: Page): Promise<FocusRing | null> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!(focused instanceof HTMLElement) || focused === document.body) return null;

    type Rgba = [number, number, number, number];
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d", { willReadFrequently: true })!;
    // Any CSS colour (rgb(), hex, oklch(), color-mix() …) as sRGB 0–255 and alpha 0–1, through a canvas pixel.
    const rgba = (color: string): Rgba => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = "transparent";
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => [
      top[0] * top[3] + bottom[0] * (1 - top[3]),
      top[1] * top[3] + bottom[1] * (1 - top[3]),
      top[2] * top[3] + bottom[2] * (1 - top[3]),
      1,
    ];
    const luminance = ([r, g, b]: Rgba): number => {
      const linear = (channel: number) => {
        const c = channel / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const css = ([r, g, b]: Rgba) => `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;
    const describe = (el: Element): string => {
      const classes = Array.from(el.classList)
        .slice(0, 2)
        .map((c) => `.${c}`);
      const role = el.getAttribute("role");
      const label =
        el.getAttribute("aria-label") ??
        (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement
          ? el.labels?.[0]?.textContent
          : null) ??
        el.textContent;
      const name = (label ?? "").replace(/\s+/g, " ").trim().slice(0, 60);
      return `${el.tagName.toLowerCase()}${classes.join("")}${role ? `[role=${role}]` : ""}${name ? ` "${name}"` : ""}`;
    };

    const white: Rgba = [255, 255, 255, 1];
    const composite = (layers: Rgba[], base: Rgba): Rgba =>
      layers.reduceRight((below, layer) => over(layer, below), base);
    // The colours behind a point of `start`: its translucent backgrounds and its ancestors' down to
    // the first opaque one, or each opaque colour stop of the first gradient met (any may be there).
    const backgroundsFrom = (start: Element | null): { color: Rgba; from: string }[] => {
      const layers: Rgba[] = [];
      for (let el = start; el; el = el.parentElement) {
        const elStyle = getComputedStyle(el);
        const stops = (elStyle.backgroundImage.match(/rgba?\([^)]*\)/g) ?? []).map(rgba).filter((c) => c[3] >= 1);
        if (stops.length > 0)
          return stops.map((stop) => ({ color: composite(layers, stop), from: `${describe(el)} (gradient)` }));
        const layer = rgba(elStyle.backgroundColor);
        if (layer[3] > 0) layers.push(layer);
        if (layer[3] >= 1) return [{ color: composite(layers, white), from: describe(el) }];
      }
      return [{ color: composite(layers, white), from: "the page" }];
    };

    const style = getComputedStyle(focused);
    const outlineWidth = parseFloat(style.outlineWidth) || 0;
    const outlineOffset = parseFloat(style.outlineOffset) || 0;
    // A ring drawn inside the element (negative offset) lies on the element's own background. One
    // drawn outside lies on whatever is painted there, which for a positioned element (the skip
    // link) is not its parent: the topmost other element at the middle of each side of the ring.
    const starts: Element[] = [];
    if (outlineOffset < 0) starts.push(focused);
    else {
      const box = focused.getBoundingClientRect();
      const out = outlineOffset + outlineWidth / 2;
      const [midX, midY] = [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
      const points = [
        [box.left - out, midY],
        [box.right + out, midY],
        [midX, box.top - out],
        [midX, box.bottom + out],
      ] as const;
      for (const [x, y] of points) {
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        const under = document.elementsFromPoint(x, y).find((el) => el !== focused && !focused.contains(el));
        if (under) starts.push(under);
      }
      if (starts.length === 0 && focused.parentElement) starts.push(focused.parentElement);
    }
    const ringOn = (background: Rgba) => over(rgba(style.outlineColor), background);
    const contrastOf = (background: Rgba) => {
      const [light, dark] = [luminance(ringOn(background)), luminance(background)].sort((a, b) => b - a) as [
        number,
        number,
      ];
      return (light + 0.05) / (dark + 0.05);
    };
    const worst = starts
      .flatMap(backgroundsFrom)
      .map((background) => ({ ...background, contrast: contrastOf(background.color) }))
      .sort((a, b) => a.contrast - b.contrast)[0] ?? { color: white, from: "the page", contrast: contrastOf(white) };
    return {
      element: describe(focused),
      // Focus on a part inside the element (a date field's calendar button) matches :focus-within only.
      focusVisible:
        focused.matches(":focus-visible") || (focused.matches(":focus-within") && !focused.matches(":focus")),
      outlineStyle: style.outlineStyle,
      outlineWidth,
      outlineOffset,
      outlineColor: css(ringOn(worst.color)),
      background: css(worst.color),
      backgroundFrom: worst.from,
      contrast: Math.round(worst.contrast * 100) / 100,
    };
  });
}

/**
 * What is wrong with a focus ring, in words (empty when it is fine): not :focus-visible, no
 * outline (or 'auto', the browser's thin default), thinner than MIN_RING_WIDTH_PX, or contrast
 * below MIN_RING_CONTRAST against the background behind it.
 */
function focusRingProblems(ring: FocusRing): string[] {
  const problems: string[] = [];
  if (!ring.focusVisible) problems.push("does not match :focus-visible");
  if (ring.outlineStyle === "none" || ring.outlineStyle === "auto") {
    problems.push(`outline-style is '${ring.outlineStyle}'`);
  }
  if (ring.outlineWidth < MIN_RING_WIDTH_PX) problems.push(`outline is ${ring.outlineWidth}px wide`);
  if (ring.contrast < MIN_RING_CONTRAST) {
    problems.push(
      `outline ${ring.outlineColor} on ${ring.background} (background of ${ring.backgroundFrom}) has contrast ${ring.contrast}:1`,
    );
  }
  return problems;
}

/**
 * Checks the page's focused element shows a visible focus ring (focusRingProblems), throwing
 * an error that names the element and its problems when not, or when nothing has focus.
 * `where` (e.g. 'after Tab 3 on /signin') starts the message. Answers the ring.
 */
export async function expectFocusRing(page: Page, where = "focused element"): Promise<FocusRing> {
  // The ring's background is read where it is painted: a dialog still zooming in is smaller, and the
  // points just outside its buttons' rings fell on the dimmed page behind it.
  await animationsDone(page);
  const ring = await focusRing(page);
  if (!ring) throw new Error(`${where}: nothing has focus (the body has it)`);
  const problems = focusRingProblems(ring);
  if (problems.length > 0)
    throw new Error(`${where}: ${ring.element} has no visible focus ring: ${problems.join("; ")}`);
  return ring;
}

/** Whether `locator`'s element has focus. */
export async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement);
}

/** Whether focus is on `container` or inside it. */
export async function focusInside(container: Locator): Promise<boolean> {
  return container.evaluate((el) => el.contains(document.activeElement));
}

/**
 * Waits until `locator`'s element has focus (focus often moves a frame after what moved it, e.g. an
 * editor focusing itself once mounted), failing after `timeoutMs` with what has focus instead.
 */
export async function focusArrives(page: Page, locator: Locator, timeoutMs = 5_000): Promise<void> {
  const element = await locator.elementHandle();
  try {
    await page.waitForFunction((el) => el === document.activeElement, element, { timeout: timeoutMs });
  } catch {
    const ring = await focusRing(page);
    throw new Error(`${locator} did not get focus within ${timeoutMs} ms; ${ring?.element ?? "the body"} has it`);
  } finally {
    await element?.dispose();
  }
}

/** Options of tabTo. */
export interface TabToOptions {
  /** Presses to try before failing (default 40). */
  max?: number;
  /** Move backwards (Shift+Tab). */
  backward?: boolean;
}

/**
 * Presses Tab (Shift+Tab when `backward`) until `target` has focus, checking the focus ring of
 * every element focus lands on on the way (focusRingProblems). Fails with the focus path (each
 * stop, in order) when the target is not reached within `max` presses, or when a stop has no
 * visible ring. Waits first until the target is visible and the page's transitions have ended.
 * Answers the target's ring.
 */
export async function tabTo(page: Page, target: Locator, options: TabToOptions = {}): Promise<FocusRing> {
  const { max = DEFAULT_MAX_PRESSES, backward = false } = options;
  const key = backward ? "Shift+Tab" : "Tab";
  await target.waitFor({ state: "visible" });
  // A dialog still zooming in over a fading overlay paints neither its ring nor its background yet.
  await animationsDone(page);
  const path: string[] = [];
  const listed = () => path.map((stop, i) => `  ${i + 1}. ${stop}`).join("\n");
  for (let press = 1; press <= max; press++) {
    await page.keyboard.press(key);
    const ring = await focusRing(page);
    path.push(ring?.element ?? "(nothing: the body)");
    if (ring) {
      const problems = focusRingProblems(ring);
      if (problems.length > 0) {
        throw new Error(
          `${key} stop ${press} (${ring.element}) on the way to ${target} has no visible focus ring: ` +
            `${problems.join("; ")}\nFocus path:\n${listed()}`,
        );
      }
      if (await isFocused(target)) return ring;
    }
  }
  throw new Error(`${target} was not focused after ${max} presses of ${key}. Focus path:\n${listed()}`);
}
