import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { AlertDialog } from "radix-ui";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "../../../lib/trpc";

/**
 * SPEC §2.18 'Delete': asks 'Are you sure you want to delete this audio?' / 'This action is not
 * reversible !' and, on confirmation, deletes the audio with its task, submission and files.
 */
export function DeleteAudioDialog({
  audioId,
  filename,
  onDeleted,
}: {
  audioId: string;
  filename: string;
  onDeleted(): void;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const remove = useMutation(trpc.audios.delete.mutationOptions());

  async function confirm() {
    try {
      const result = await remove.mutateAsync({ audioId });
      toast.success(result.message || "Audio deleted successfully.");
      setOpen(false);
      onDeleted();
    } catch (error) {
      toast.error("Failed to delete audio.", { description: errorMessage(error) });
    }
  }

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
      <AlertDialog.Trigger asChild>
        <button type="button" className="btn btn-danger btn-sm">
          Delete
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog-content">
          <AlertDialog.Title className="dialog-title">Are you sure you want to delete this audio?</AlertDialog.Title>
          <AlertDialog.Description>This action is not reversible !</AlertDialog.Description>
          <p className="muted">{filename}</p>
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <button type="button" className="btn" disabled={remove.isPending}>
                Cancel
              </button>
            </AlertDialog.Cancel>
            <button type="button" className="btn btn-danger" disabled={remove.isPending} onClick={() => void confirm()}>
              {remove.isPending ? <span className="spinner" aria-hidden="true" /> : null}
              Delete
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
