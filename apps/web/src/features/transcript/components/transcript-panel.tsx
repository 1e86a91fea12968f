import { useCallback, useMemo, useRef, useState } from "react";
import { UNEXPECTED_ERROR } from "@tafsiri/domain";
import { useMutation, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { TRPCClientError } from "@trpc/client";
import type { AudioDetail } from "#web/lib/api-types";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import { transcriptApprovalLabel } from "#web/lib/approval-labels";
import { errorMessage, isConnectionError, useTRPC, useTRPCClient } from "#web/lib/trpc";
import { sendsLater } from "#web/lib/connection";
import { useSession } from "#web/hooks/use-session";
import { TRANSCRIPT_FETCH_FAILED } from "#web/hooks/use-transcript-history";
import { useRefreshAudioWork } from "#web/hooks/use-refresh-audio-work";
import { useSpanPlayer } from "#web/hooks/use-span-player";
import { OriginalAudioToggle } from "#web/components/original-audio-toggle";
import { ReviewActions, reviewRunOf } from "#web/components/review-actions";
import { parseTranscript, TRANSCRIPT_EMPTY, type TranscriptLine } from "@tafsiri/domain";
import { TranscriptEditor, type TranscriptEditorHandle, type TranscriptPlayer } from "./transcript-editor";
import { SegmentSuggestions } from "./segment-suggestions";
import "./transcript-speakers.css";
import { displayTime } from "#web/lib/dates";
import { dropDraft, keepDraft, readDraft, type TranscriptDraft } from "#web/features/transcript/lib/transcript-drafts";
import { shortLineTime, SPEAKER_NAMES } from "#web/features/transcript/lib/speaker-paragraph";
import { TRANSCRIPT_SHORTCUTS } from "#web/lib/key-registry";
import { ChangesSinceReview } from "#web/components/transcript-changes";
import { isRefusal } from "#web/lib/query-failure";
import "#web/features/transcript/transcript.css";

const SAVED = "Transcript saved and uploaded successfully.";
/** A Save made while the connection is lost is held and sent when it returns (decision 021). */
const SAVE_HELD = "Transcript will be saved when the connection returns.";
/** The Save button while its save is held (decision 021). */
const WAITING = "Waiting for connection…";

/**
 * SPEC §8: the toast for a failed save, with the server's message when there is one (SPEC §7.3's
 * connection message when the server did not answer).
 */
function saveFailureText(error: unknown): string {
  const message = error instanceof TRPCClientError ? errorMessage(error) : error instanceof Error ? error.message : "";
  return message ? `Error uploading transcript, server error: ${message}` : "Error uploading transcript.";
}

/**
 * SPEC §8: a refused approve, reject or delete (e.g. 409 'The transcript is now Rejected; refresh
 * and try again.') shows the server's message; no answer at all SPEC §7.3's connection message;
 * anything else the generic text.
 */
function showReviewFailure(error: unknown): void {
  if (isConnectionError(error)) toast.error(errorMessage(error));
  else if (error instanceof TRPCClientError && error.data && error.message) toast.error(error.message);
  else toast.error(UNEXPECTED_ERROR);
}

/**
 * The saved transcript as read (decision 024): its lines as written when none names a speaker or a
 * time (transcripts written before look as they did), else each line with its speaker and start
 * before it, as the editor shows them.
 */
function SavedTranscript({ text }: { text: string }) {
  const lines = parseTranscript(text);
  if (!lines.some((line) => line.speaker !== "PAR" || line.startMs !== null)) return <>{text}</>;
  return (
    <>
      {lines.map((line: TranscriptLine, index) => (
        <div key={index} className="speaker-paragraph" data-speaker={line.speaker}>
          <span className="speaker-gutter">
            <abbr className="speaker-label" title={SPEAKER_NAMES[line.speaker]}>
              {line.speaker}
            </abbr>
            {line.startMs !== null && <span className="speaker-time">{shortLineTime(line.startMs)}</span>}
          </span>
          <p className="speaker-text">{line.text}</p>
        </div>
      ))}
    </>
  );
}

/**
 * The Translated Transcript panel (SPEC §2.12): the original audio on demand, the transcript's
 * approval status, the saved text (click or 'Write' to edit it in the rich-text editor), 'Save
 * Changes', and for an Admin Approve / Reject / Delete. Once Approved it is read-only. What is
 * written is kept in the browser until it is saved or cancelled; an unsaved draft that differs
 * from the saved text is offered back ('Restore draft' / 'Discard') when the panel opens again
 * (SPEC §2.12). A Save made while the connection is lost is held (the button says 'Waiting
 * for connection…') and sent once when it returns, the draft kept until it succeeded; a save that
 * got no answer is shown as not saved, its text still in the editor and the draft (decision 021).
 * Decision 024, "Who spoke, when": the editor marks each paragraph's speaker and start from the
 * original audio's player (which lists the editor's keys) and plays from a start, showing the
 * player when it is hidden; 'Suggest segments' offers start times found in the audio.
 */
export function TranscriptPanel({ audio }: { audio: AudioDetail }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const session = useSession();
  const refresh = useRefreshAudioWork();
  const transcript = useQuery({
    ...trpc.transcripts.get.queryOptions({ audioId: audio.id }),
    meta: { errorMessage: TRANSCRIPT_FETCH_FAILED },
  });
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const editorRef = useRef<TranscriptEditorHandle>(null);
  const spanPlayer = useSpanPlayer();
  const { playSpan, positionMs } = spanPlayer;
  const player = useMemo<TranscriptPlayer>(
    () => ({ positionMs, playFrom: (ms) => playSpan(ms) }),
    [playSpan, positionMs],
  );
  const userId = session?._id ?? "";
  // The draft a previous visit left, read once per audio; null once restored or discarded.
  const [leftDraft, setLeftDraft] = useState<TranscriptDraft | null>(() => readDraft(userId, audio.id));
  // The outcome is handled here rather than per call: a save held while offline may be sent after
  // the panel has closed, and its toast must still show (once) and its draft be dropped.
  const save = useMutation(
    trpc.transcripts.save.mutationOptions({
      onSuccess: (_result, sent) => {
        toast.success(SAVED);
        // Text typed while the save was held is newer than what was sent: keep it, and keep editing.
        const kept = readDraft(userId, sent.audioId);
        if (kept && kept.text !== sent.text) return;
        setEditing(false);
        setLeftDraft(null);
        dropDraft(userId, sent.audioId);
      },
      onError: (error) => {
        console.error("Error uploading transcript", error);
        toast.error(saveFailureText(error));
      },
      onSettled: refresh,
    }),
  );

  const status = transcript.data?.status ?? "No transcript";
  const savedText = transcript.data?.text ?? "";
  const approved = status === "Approved";
  const isAdmin = session?.role === "Admin";

  const startWriting = () => {
    if (approved || !transcript.data) return;
    setDraft(savedText);
    setEditing(true);
  };
  const changeDraft = useCallback(
    (text: string) => {
      setDraft(text);
      keepDraft(userId, audio.id, text);
    },
    [userId, audio.id],
  );
  const stopWriting = () => {
    setEditing(false);
    dropDraft(userId, audio.id);
  };
  const restoreDraft = (kept: TranscriptDraft) => {
    setLeftDraft(null);
    setDraft(kept.text);
    setEditing(true);
  };
  const discardDraft = () => {
    setLeftDraft(null);
    dropDraft(userId, audio.id);
  };
  // A draft equal to the saved text, or of an approved transcript, has nothing to offer.
  const offeredDraft =
    leftDraft && transcript.data && !approved && !editing && leftDraft.text.trim() !== savedText.trim()
      ? leftDraft
      : null;

  const saveChanges = () => {
    const text = editing ? draft : savedText;
    if (!text.trim()) {
      toast.error(TRANSCRIPT_EMPTY);
      return;
    }
    // Disabled while a save is pending or held, so one Save is sent once; say when it waits.
    if (save.isPending) return;
    const held = sendsLater();
    save.mutate({ audioId: audio.id, text });
    if (held) toast.info(SAVE_HELD);
  };

  let body;
  if (transcript.isPending) {
    body = (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading transcript…
      </p>
    );
  } else if (transcript.data === undefined || (transcript.isError && isRefusal(transcript.error))) {
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
    body = <TranscriptEditor ref={editorRef} initialText={draft} onChange={changeDraft} player={player} />;
  } else {
    body = (
      <div
        className={`transcript-view${approved ? "" : " is-editable"}`}
        data-testid="transcript-text"
        title={approved ? undefined : "Click to write"}
        onClick={startWriting}
      >
        {savedText.trim() ? (
          <SavedTranscript text={savedText} />
        ) : (
          <span className="muted">Type your transcript here...</span>
        )}
      </div>
    );
  }

  return (
    <div className="card stack transcript-panel">
      <div className="row panel-header">
        <h2 className="panel-title">Translated Transcript</h2>
        <StatusBadge status={status} label={transcriptApprovalLabel(status)} />
      </div>
      <OriginalAudioToggle
        audioUrl={audio.audioUrl}
        waveform={audio.waveform}
        shown={spanPlayer.shown}
        onShownChange={spanPlayer.setShown}
        playerRef={spanPlayer.attachPlayer}
        moreShortcuts={editing ? TRANSCRIPT_SHORTCUTS : undefined}
      />
      {offeredDraft && (
        <div className="draft-notice row" role="region" aria-label="Unsaved draft">
          <p>You have an unsaved draft from {displayTime(offeredDraft.savedAt).full}.</p>
          <div className="row">
            <button type="button" className="btn btn-primary btn-sm" onClick={() => restoreDraft(offeredDraft)}>
              Restore draft
            </button>
            <button type="button" className="btn btn-sm" onClick={discardDraft}>
              Discard
            </button>
          </div>
        </div>
      )}
      {editing && (
        <div className="row transcript-tools">
          <SegmentSuggestions
            audioId={audio.id}
            onPlay={playSpan}
            onApply={(starts) => editorRef.current?.applySegmentStarts(starts)}
            onApplied={() => editorRef.current?.focus()}
          />
        </div>
      )}
      {body}
      {transcript.data && !approved && (
        <div className="row transcript-footer">
          <button
            type="button"
            className="btn"
            onClick={editing ? stopWriting : startWriting}
            disabled={save.isPending}
          >
            {editing ? "Cancel" : "Write"}
          </button>
          <button type="button" className="btn btn-primary" onClick={saveChanges} disabled={save.isPending}>
            {save.isPending && !save.isPaused && <span className="spinner" aria-hidden="true" />}
            {save.isPaused ? WAITING : "Save Changes"}
          </button>
        </div>
      )}
      {/* Decision 025: an admin sees what changed since the last review, and the version history. */}
      {!editing && <ChangesSinceReview audioId={audio.id} enabled={isAdmin} />}
      {isAdmin && transcript.data && (
        <div className="review">
          {status !== "No transcript" ? (
            <ReviewActions
              status={status}
              subject="transcript"
              run={reviewRunOf(client, "transcripts", audio.id)}
              assignee={audio.task?.assignedTo}
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
