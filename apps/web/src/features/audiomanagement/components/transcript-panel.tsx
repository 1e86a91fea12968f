import { useEffect, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { TRPCClientError } from "@trpc/client";
import type { AudioDetail } from "../../../lib/api-types";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import { transcriptApprovalLabel } from "../../../lib/approval-labels";
import { useTRPC, useTRPCClient } from "../../../lib/trpc";
import { useSession } from "../../../hooks/use-session";
import { useRefreshAudioWork } from "../hooks/use-refresh-audio-work";
import { OriginalAudioToggle } from "./original-audio-toggle";
import { ReviewActions } from "./review-actions";
import { TranscriptEditor } from "./transcript-editor";

const UNEXPECTED = "An unexpected error occurred. Please try again.";

/** SPEC §8: the toast for a failed save, with the server's message when there is one. */
function saveFailureText(error: unknown): string {
  const message = error instanceof TRPCClientError || error instanceof Error ? error.message : "";
  return message ? `Error uploading transcript, server error: ${message}` : "Error uploading transcript.";
}

/**
 * SPEC §8: a refused approve, reject or delete (e.g. 409 'The transcript is now Rejected; refresh
 * and try again.') shows the server's message; anything else the generic text.
 */
function showReviewFailure(error: unknown): void {
  if (error instanceof TRPCClientError && error.data && error.message) toast.error(error.message);
  else toast.error(UNEXPECTED);
}

/**
 * The Translated Transcript panel (SPEC §2.12): the original audio on demand, the transcript's
 * approval status, the saved text (click or 'Write' to edit it in the rich-text editor), 'Save
 * Changes', and for an Admin Approve / Reject / Delete. Once Approved it is read-only.
 */
export function TranscriptPanel({ audio }: { audio: AudioDetail }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const session = useSession();
  const refresh = useRefreshAudioWork();
  const transcript = useQuery(trpc.transcripts.get.queryOptions({ audioId: audio.id }));
  const save = useMutation(trpc.transcripts.save.mutationOptions());
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");

  useEffect(() => {
    if (transcript.error) console.error("Error fetching transcript:", transcript.error);
  }, [transcript.error]);

  const status = transcript.data?.status ?? "No transcript";
  const savedText = transcript.data?.text ?? "";
  const approved = status === "Approved";
  const isAdmin = session?.role === "Admin";

  const startWriting = () => {
    if (approved || !transcript.data) return;
    setDraft(savedText);
    setEditing(true);
  };

  const saveChanges = () => {
    const text = editing ? draft : savedText;
    if (!text.trim()) {
      toast.error("Transcript is empty.");
      return;
    }
    save.mutate(
      { audioId: audio.id, text },
      {
        onSuccess: () => {
          toast.success("Transcript saved and uploaded successfully.");
          setEditing(false);
        },
        onError: (error) => {
          console.error("Error uploading transcript", error);
          toast.error(saveFailureText(error));
        },
        onSettled: refresh,
      },
    );
  };

  let body;
  if (transcript.isPending) {
    body = (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading transcript…
      </p>
    );
  } else if (transcript.isError) {
    body = (
      <div className="stack" role="alert">
        <p className="field-error">Failed to load transcript.</p>
        <div>
          <button type="button" className="btn btn-sm" onClick={() => void transcript.refetch()}>
            Retry
          </button>
        </div>
      </div>
    );
  } else if (editing) {
    body = <TranscriptEditor initialText={draft} onChange={setDraft} />;
  } else {
    body = (
      <div
        className={`transcript-view${approved ? "" : " is-editable"}`}
        data-testid="transcript-text"
        title={approved ? undefined : "Click to write"}
        onClick={startWriting}
      >
        {savedText.trim() ? savedText : <span className="muted">Type your transcript here...</span>}
      </div>
    );
  }

  return (
    <div className="card stack transcript-panel">
      <div className="row panel-header">
        <h2 className="panel-title">Translated Transcript</h2>
        <StatusBadge status={status} label={transcriptApprovalLabel(status)} />
      </div>
      <OriginalAudioToggle audioUrl={audio.audioUrl} />
      {body}
      {transcript.data && !approved && (
        <div className="row transcript-footer">
          <button
            type="button"
            className="btn"
            onClick={editing ? () => setEditing(false) : startWriting}
            disabled={save.isPending}
          >
            {editing ? "Cancel" : "Write"}
          </button>
          <button type="button" className="btn btn-primary" onClick={saveChanges} disabled={save.isPending}>
            {save.isPending && <span className="spinner" aria-hidden="true" />}
            Save Changes
          </button>
        </div>
      )}
      {isAdmin && transcript.data && (
        <div className="review">
          {status !== "No transcript" ? (
            <ReviewActions
              status={status}
              subject="transcript"
              run={(action, expectedStatus, reason) =>
                action === "reject"
                  ? client.transcripts.reject.mutate({ audioId: audio.id, expectedStatus, reason })
                  : client.transcripts[action].mutate({ audioId: audio.id, expectedStatus })
              }
              onFailure={showReviewFailure}
              onSettled={refresh}
            />
          ) : (
            <p className="muted">No transcript submitted yet.</p>
          )}
        </div>
      )}
    </div>
  );
}
