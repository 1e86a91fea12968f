import type { Page } from "playwright-core";

/**
 * WCAG 3.3.1 / 1.3.1 for the form errors on screen now: every visible field error (`.field-error`)
 * must be named by the `aria-describedby` of a form control, and every control marked
 * `aria-invalid="true"` must be described by a visible, non-empty element. Answers one line per
 * fault ('' faults: none), naming the error text or the control.
 */
export async function untiedFieldErrors(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null || el.getClientRects().length > 0;
    const controls = Array.from(document.querySelectorAll("input, select, textarea, [role=textbox]"));
    const describedIds = new Set(
      controls.flatMap((c) => (c.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean)),
    );
    for (const error of Array.from(document.querySelectorAll(".field-error"))) {
      if (!visible(error)) continue;
      if (!error.id || !describedIds.has(error.id)) faults.push(`error not tied to a field: "${error.textContent}"`);
    }
    for (const control of controls.filter((c) => c.getAttribute("aria-invalid") === "true")) {
      const ids = (control.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
      const described = ids
        .map((id) => document.getElementById(id))
        .some((el) => el !== null && visible(el) && (el.textContent ?? "").trim() !== "");
      if (!described) faults.push(`invalid field without a description: ${control.outerHTML.slice(0, 120)}`);
    }
    return faults;
  });
}
