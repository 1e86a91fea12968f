import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";
import { animationsDone } from "./animations";

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, injected into the page under test. */
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
/** The rules of WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** One failed axe rule: its id, impact, help text and the failing nodes (CSS target and the start of their HTML). */
export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** What axe looks at: CSS selectors of the parts to check, and of parts inside them to leave out. */
export interface AxeScope {
  include: string[];
  exclude?: string[];
}

/**
 * Runs axe-core (WCAG 2.1 A and AA rules) on the page as it is now, or only on `scope` (e.g.
 * '[role="dialog"]': the page behind a modal is dimmed by its overlay and inert, so its contrast
 * there is not a finding), and answers the violations of impact serious or critical.
 * Waits first until no finite CSS transition or animation is running (animationsDone). The bundle is evaluated over the DevTools protocol, so the app's Content-Security-Policy does not
 * block it.
 */
export async function seriousAxeViolations(page: Page, scope?: AxeScope): Promise<AxeViolation[]> {
  await animationsDone(page);
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ tags, scope }) => {
      const { axe } = window as unknown as { axe: { run(context: unknown, options: object): Promise<AxeResults> } };
      const context = scope ?? document;
      const results = await axe.run(context, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => `${n.target.join(" ")}: ${n.html.slice(0, 160)}`),
      }));
    },
    { tags: WCAG_21_AA, scope },
  );
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
