import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { Modal } from "./modal";
import { StaffSelect, type StaffChoice } from "#web/components/staff-select";

/**
 * SPEC §2.18 'Reassign': a modal with a staff dropdown that leaves out the current assignee;
 * moves the audio's task to the chosen staff member and calls `onReassigned` on success.
 */
export function ReassignDialog({
  audioId,
  filename,
  assignee,
  staff,
  onReassigned,
}: {
  audioId: string;
  filename: string;
  assignee: StaffChoice;
  staff: readonly StaffChoice[];
  onReassigned(): void;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [staffId, setStaffId] = useState("");
  const reassign = useMutation(trpc.tasks.reassign.mutationOptions());

  function changeOpen(next: boolean) {
    if (reassign.isPending) return;
    setOpen(next);
    if (!next) setStaffId("");
  }

  async function submit() {
    if (!staffId) return void toast.error("Please select a staff member to reassign.");
    try {
      const { message } = await reassign.mutateAsync({ audioId, staffId });
      toast.success(message);
      setOpen(false);
      setStaffId("");
      onReassigned();
    } catch (error) {
      toast.error("Failed to reassign audio.", { description: errorMessage(error) });
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={changeOpen}
      title="Reassign audio"
      description={`${filename} is assigned to ${assignee.username}.`}
      trigger={
        <button type="button" className="btn btn-sm">
          Reassign
        </button>
      }
    >
      <StaffSelect
        label="Staff"
        name="staff"
        placeholder="Select staff"
        staff={staff}
        excludeIds={[assignee.id]}
        value={staffId}
        disabled={reassign.isPending}
        onChange={setStaffId}
      />
      <div className="dialog-actions">
        <button type="button" className="btn" disabled={reassign.isPending} onClick={() => changeOpen(false)}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" disabled={reassign.isPending} onClick={() => void submit()}>
          {reassign.isPending ? <span className="spinner" aria-hidden="true" /> : null}
          Reassign
        </button>
      </div>
    </Modal>
  );
}
