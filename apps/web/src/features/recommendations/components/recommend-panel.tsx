import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import type { AudioDetail } from "#web/lib/api-types";
import { STAFF_LIST_FAILED, StaffSelect } from "#web/components/staff-select";
import { errorMessage, useTRPC, useTRPCClient } from "#web/lib/trpc";
import { useSession } from "#web/hooks/use-session";

/** SPEC §5, §8 texts of the Recommend screen. */
const STAFF_REQUIRED = "Please select a staff member";
const NOT_READY = "Translation stage has not been completed.";
const SENT = "Recommendation sent successfully!.";
const UNSUCCESSFUL = "Recommendation unsuccessful. Please try again later.";
const CHECK_FAILED = "Failed to load recommendation.";

/**
 * The Recommend panel (SPEC §2.15): the audio's name, a 'Select staff' dropdown of active staff
 * (without the current assignee or the signed-in user) and 'Submit Recommendation'. On submit it
 * checks that the translation stage has a result ('Translation stage has not been completed.'
 * otherwise), then recommends; the button stays disabled while that runs.
 */
export function RecommendPanel({ audio }: { audio: AudioDetail }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const session = useSession();
  const staff = useQuery(trpc.accounts.staff.queryOptions());
  const [staffId, setStaffId] = useState("");
  const [sending, setSending] = useState(false);
  const recommend = useMutation(trpc.recommendations.create.mutationOptions());
  const assigneeId = audio.task?.assignedTo?.id;

  useEffect(() => {
    if (staff.error) toast.error(STAFF_LIST_FAILED, { description: errorMessage(staff.error) });
  }, [staff.error]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!staffId) {
      toast.error(STAFF_REQUIRED);
      return;
    }
    setSending(true);
    try {
      const check = await client.recommendations.check.query({ audioId: audio.id }).catch((error: unknown) => {
        toast.error(CHECK_FAILED, { description: errorMessage(error) });
        return null;
      });
      if (!check) return;
      if (!check.ready) {
        toast.error(NOT_READY);
        return;
      }
      const out = await recommend.mutateAsync({ audioId: audio.id, staffId });
      toast.success(out.message || SENT);
      setStaffId("");
    } catch (error) {
      toast.error(UNSUCCESSFUL, { description: errorMessage(error) });
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="card stack recommend-panel">
      <h2 className="panel-title">Recommend Audio</h2>
      <p className="muted recommend-audio" data-testid="recommend-audio-name">
        Audio: <strong>{audio.filename}</strong>
        {audio.task?.assignedTo && <> · assigned to {audio.task.assignedTo.username}</>}
      </p>
      <form className="stack" onSubmit={(e) => void submit(e)} noValidate aria-label="Recommend audio">
        <StaffSelect
          label="Select staff"
          name="staff"
          staff={staff.data ?? []}
          excludeIds={[assigneeId, session?._id]}
          loading={staff.isPending}
          failed={staff.isError}
          value={staffId}
          onChange={setStaffId}
          disabled={sending}
        />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending && <span className="spinner" aria-hidden="true" />}
            Submit Recommendation
          </button>
        </div>
      </form>
    </div>
  );
}
