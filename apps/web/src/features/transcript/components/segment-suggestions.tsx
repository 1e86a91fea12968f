import { useState } from "react";
import { Dialog } from "radix-ui";
import { toast } from "sonner";
import { errorMessage, useTRPCClient } from "#web/lib/trpc";
import { shortLineTime } from "#web/features/transcript/lib/speaker-paragraph";

/** A stretch of speech the server found, in whole ms from the recording's start. */
interface Segment {
  startMs: number;
  endMs: number;
}

/** Said when the server found no speech at all. */
const NO_SPEECH = "No speech found in this recording.";

/**
 * Decision 024, "Who spoke, when": 'Suggest segments' asks the server for the stretches of speech
 * in the audio (`transcripts.suggestSegments`; the button says 'Finding segments…' and is disabled
 * meanwhile) and lists them in a dialog, each with a button that plays it (`onPlay(startMs, endMs)`).
 * Nothing changes until the staff member presses 'Apply', which hands the starts to `onApply` (in
 * order), and once the dialog has closed calls `onApplied` (e.g. to focus the editor); 'Cancel',
 * Escape or a click outside drop them. No speech: NO_SPEECH; a failure: the
 * server's message, both as toasts.
 */
export function SegmentSuggestions({
  audioId,
  onPlay,
  onApply,
  onApplied,
}: {
  audioId: string;
  onPlay: (startMs: number, endMs: number) => void;
  onApply: (startsMs: number[]) => void;
  onApplied: () => void;
}) {
  const client = useTRPCClient();
  const [finding, setFinding] = useState(false);
  const [segments, setSegments] = useState<Segment[] | null>(null);
  const [applied, setApplied] = useState(false);

  const find = async () => {
    setFinding(true);
    try {
      const answer = await client.transcripts.suggestSegments.query({ audioId });
      if (answer.segments.length === 0) toast.info(NO_SPEECH);
      else {
        setApplied(false);
        setSegments(answer.segments);
      }
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setFinding(false);
    }
  };
  const apply = () => {
    if (!segments) return;
    setApplied(true);
    setSegments(null);
    onApply(segments.map((s) => s.startMs));
  };

  return (
    <>
      <button type="button" className="btn" onClick={() => void find()} disabled={finding}>
        {finding && <span className="spinner" aria-hidden="true" />}
        {finding ? "Finding segments…" : "Suggest segments"}
      </button>
      <Dialog.Root open={segments !== null} onOpenChange={(open) => !open && setSegments(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content
            className="dialog-content segment-dialog"
            // After 'Apply' the focus goes where onApplied puts it (the editor: go on writing, or undo).
            onCloseAutoFocus={(event) => {
              if (!applied) return;
              event.preventDefault();
              onApplied();
            }}
          >
            <Dialog.Title className="dialog-title">Suggested segments</Dialog.Title>
            <Dialog.Description className="muted">
              {segments?.length === 1 ? "1 stretch of speech was" : `${segments?.length ?? 0} stretches of speech were`}{" "}
              found. &lsquo;Apply&rsquo; gives the paragraphs with text these start times in order; starts left over
              become new paragraphs. Undo (Ctrl+Z) takes it back.
            </Dialog.Description>
            <ol className="segment-list" aria-label="Suggested segments">
              {segments?.map((segment, index) => {
                const span = `${shortLineTime(segment.startMs)}–${shortLineTime(segment.endMs)}`;
                return (
                  <li key={`${segment.startMs}-${segment.endMs}`} className="segment-item">
                    <span className="segment-span">{span}</span>
                    <button
                      type="button"
                      className="btn btn-sm"
                      aria-label={`Play segment ${index + 1}, ${span}`}
                      onClick={() => onPlay(segment.startMs, segment.endMs)}
                    >
                      Play
                    </button>
                  </li>
                );
              })}
            </ol>
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn">
                  Cancel
                </button>
              </Dialog.Close>
              <button type="button" className="btn btn-primary" onClick={apply}>
                Apply
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
