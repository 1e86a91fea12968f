import path from "node:path";
import { fileURLToPath } from "node:url";
import { it } from "vitest";

/** The audio fixtures (see fixtures/make-fixtures.sh). */
export function fixture(name: string): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", name);
}

/**
 * Ordered steps of one flow sharing state: each step is a test, run in order; once a step fails,
 * the later ones are skipped with a note naming it (they depend on it), so the report shows the
 * first broken step rather than a cascade.
 */
export function createSteps(): (name: string, body: () => Promise<void>) => void {
  let failedStep: string | null = null;
  return (name, body) => {
    it(name, async (context) => {
      if (failedStep) context.skip(`depends on the failed step "${failedStep}"`);
      try {
        await body();
      } catch (error) {
        failedStep = name;
        throw error;
      }
    });
  };
}
