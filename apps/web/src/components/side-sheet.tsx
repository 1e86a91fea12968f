import type { ReactNode } from "react";
import { Dialog } from "radix-ui";

/**
 * A side panel: a radix Dialog shown as a sheet on the right, opened by `trigger`, with its title,
 * a Close button (✕, named 'Close') and a description above `children`. Escape and Close return
 * focus to the trigger. While `busy` (a save runs) the Close button is disabled; the caller's
 * `onOpenChange` decides whether the panel may close.
 */
export function SideSheet({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  busy = false,
  className,
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  busy?: boolean;
  /** Classes added to the sheet (e.g. a wider one). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={className ? `sheet-content ${className}` : "sheet-content"}>
          <div className="sheet-header">
            <Dialog.Title className="dialog-title">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" className="btn btn-ghost btn-sm" aria-label="Close" disabled={busy}>
                ✕
              </button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="muted">{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A Cancel button that closes the side panel (or dialog) it is in. */
export function CloseButton({ disabled, children = "Cancel" }: { disabled?: boolean; children?: ReactNode }) {
  return (
    <Dialog.Close asChild>
      <button type="button" className="btn" disabled={disabled}>
        {children}
      </button>
    </Dialog.Close>
  );
}
