import type { ReactNode } from "react";
import { AlertDialog } from "radix-ui";

/**
 * A confirmation before a consequential action (radix AlertDialog): `trigger` opens it, Cancel or
 * Escape closes it and focus returns to the trigger. While `pending` (the request runs) both
 * buttons are disabled, the confirm button shows a spinner and the dialog cannot be closed; the
 * caller closes it (`onOpenChange(false)`) once the request succeeded.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  children,
  confirmLabel,
  confirmClassName = "btn btn-danger",
  pending,
  onConfirm,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  /** Shown under the description. */
  children?: ReactNode;
  confirmLabel: string;
  confirmClassName?: string;
  pending: boolean;
  onConfirm(): void;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog-content">
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description>{description}</AlertDialog.Description>
          {children}
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <button type="button" className="btn" disabled={pending}>
                Cancel
              </button>
            </AlertDialog.Cancel>
            <button type="button" className={confirmClassName} disabled={pending} onClick={onConfirm}>
              {pending ? <span className="spinner" aria-hidden="true" /> : null}
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
