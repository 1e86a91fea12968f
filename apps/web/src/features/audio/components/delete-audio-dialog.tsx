import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { ConfirmDialog } from "#web/components/confirm-dialog";

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
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn btn-danger btn-sm">
          Delete
        </button>
      }
      title="Are you sure you want to delete this audio?"
      description="This action is not reversible !"
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={() => void confirm()}
    >
      <p className="muted">{filename}</p>
    </ConfirmDialog>
  );
}
