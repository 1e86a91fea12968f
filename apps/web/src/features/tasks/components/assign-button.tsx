import { Tooltip } from "radix-ui";

const HINT = "Select a staff before assigning";

/**
 * A row's Assign button (SPEC §2.17): disabled until a staff member is chosen, with the tooltip
 * 'Select a staff before assigning' (a disabled button gets no pointer events, so the tooltip
 * hangs on a focusable wrapper).
 */
export function AssignButton({ ready, pending, onAssign }: { ready: boolean; pending: boolean; onAssign(): void }) {
  const button = (
    <button type="button" className="btn btn-primary btn-sm" disabled={!ready || pending} onClick={onAssign}>
      {pending ? <span className="spinner" aria-hidden="true" /> : null}
      Assign
    </button>
  );
  if (ready) return button;
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <span className="tooltip-anchor" tabIndex={0} title={HINT}>
          {button}
        </span>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className="tooltip-content" sideOffset={6}>
          {HINT}
          <Tooltip.Arrow className="tooltip-arrow" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}
