import type { ReactNode } from "react";

/**
 * A table's scroll box that a keyboard can scroll (WCAG 2.1.1; axe's scrollable-region-focusable):
 * a focusable region named `label`, with a visible focus ring (`.dash-scroll`). `busy` marks it
 * aria-busy while its data is being fetched again.
 */
export function ScrollRegion({ label, busy, children }: { label: string; busy?: boolean; children: ReactNode }) {
  return (
    <div
      className="table-wrap dash-table-wrap dash-scroll"
      role="region"
      aria-label={label}
      aria-busy={busy}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
