import { useQuery } from "@tanstack/react-query";
import { UNEXPECTED_ERROR } from "@tafsiri/domain";
import { toast } from "sonner";
import { TRPCClientError } from "@trpc/client";
import type { AudioDetail } from "#web/lib/api-types";
import { AudioPlayer, playerWaveform } from "@tafsiri/ui/audio-player";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import { errorMessage, isConnectionError, useTRPC, useTRPCClient } from "#web/lib/trpc";
import { useSession } from "#web/hooks/use-session";
import { useRefreshAudioWork } from "#web/hooks/use-refresh-audio-work";
import { sourceKey } from "#web/lib/source-key";
import { OriginalAudioToggle } from "#web/components/original-audio-toggle";
import { RecordingUploadForm } from "./recording-upload-form";
import { ReviewActions, reviewRunOf } from "#web/components/review-actions";
import { isRefusal } from "#web/lib/query-failure";
import "#web/styles/audio-player.css";
import "#web/features/recording/recording.css";

/**
 * SPEC §8: a refused action shows 'Error' with the server's message; no answer at all SPEC §7.3's
 * connection message (decision 021); anything else the generic text.
 */
function showFailure(error: unknown): void {
  if (isConnectionError(error)) toast.error("Error", { description: errorMessage(error) });
  else if (error instanceof TRPCClientError && error.data) toast.error("Error", { description: error.message });
  else toast.error(UNEXPECTED_ERROR);
}

/**
 * The Translated Audio panel (SPEC §2.13): the original audio on demand, the submitted translated
 * recording with its approval status and player ('No submission yet' when none), both players
 * streaming their file and drawing its stored peaks (ARCHITECTURE "Long recordings and the
 * corpus"), the Admin's Approve / Reject / Delete, and for Staff the upload form while the
 * recording is not Approved.
 */
export function RecordingPanel({ audio }: { audio: AudioDetail }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const session = useSession();
  const refresh = useRefreshAudioWork();
  const recording = useQuery({
    ...trpc.recordings.get.queryOptions({ audioId: audio.id }),
    meta: { errorMessage: "Failed to load the translated audio" },
  });
  const isAdmin = session?.role === "Admin";
  const data = recording.data;

  let submission;
  if (recording.isPending) {
    submission = (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading translated audio…
      </p>
    );
  } else if (recording.data === undefined || (recording.isError && isRefusal(recording.error))) {
    submission = (
      <div className="stack" role="alert">
        <p className="field-error">The translated audio could not be loaded.</p>
        <div>
          <button type="button" className="btn btn-sm" onClick={() => void recording.refetch()}>
            Retry
          </button>
        </div>
      </div>
    );
  } else if (recording.data.url) {
    submission = (
      <div className="stack recording-submission" data-testid="recording-submission">
        <div className="row">
          <span className="label">Submitted translated audio</span>
          <StatusBadge status={recording.data.status} />
          {recording.data.recordedBy && <span className="muted">Recorded by {recording.data.recordedBy.username}</span>}
        </div>
        <AudioPlayer
          url={recording.data.url}
          sourceKey={sourceKey(recording.data.url)}
          label="Translated audio"
          waveform={playerWaveform(recording.data.waveform)}
        />
      </div>
    );
  } else {
    submission = <p className="muted">No submission yet</p>;
  }

  return (
    <div className="card stack recording-panel">
      <h2 className="panel-title">Translated Audio</h2>
      <OriginalAudioToggle audioUrl={audio.audioUrl} waveform={audio.waveform} />
      {submission}
      {isAdmin && data?.url && (
        <ReviewActions
          status={data.status}
          subject="translated audio"
          run={reviewRunOf(client, "recordings", audio.id)}
          assignee={audio.task?.assignedTo}
          onFailure={showFailure}
          onSettled={refresh}
        />
      )}
      {!isAdmin && data && data.status !== "Approved" && (
        <RecordingUploadForm audioId={audio.id} audioFilename={audio.filename} onUploaded={refresh} />
      )}
    </div>
  );
}
