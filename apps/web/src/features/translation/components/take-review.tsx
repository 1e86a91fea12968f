import { useId, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { toast } from "sonner";
import { REVIEW_REASON_MAX_LENGTH } from "@tafsiri/domain";
import { REVIEW_KEYS } from "#web/lib/key-registry";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { htmlLang } from "#web/features/translation/lib/segment-labels";
import { SegmentTimeSpeaker } from "#web/features/translation/components/segment-time-speaker";
import { useSpanPlayback, type PlayedSpan } from "#web/features/translation/hooks/use-span-playback";
import "#web/features/translation/translation.css";

/** The key that plays the chosen segment's source, then its take (review mode presses the button it names). */
const PLAY_SEGMENT_KEYS = REVIEW_KEYS.find((k) => k.command === "playSegment")!.keys;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The dialog asking for segment `number`'s take to be recorded again, with what to change
 * (optional, at most REVIEW_REASON_MAX_LENGTH characters). Cancelled, focus returns to its
 * trigger; once the request is stored the trigger gives way to 'Withdraw', so `onAsked` places it.
 */
function AskAgainDialog({
  number,
  pending,
  onAsk,
  onAsked,
}: {
  number: number;
  pending: boolean;
  /** Answers whether the request was stored (the dialog then closes). */
  onAsk(note: string): Promise<boolean>;
  onAsked(): void;
}) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const asked = useRef(false);
  const fieldId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onAsk(note)) {
      asked.current = true;
      setOpen(false);
      setNote("");
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="btn btn-sm">
          Ask again<span className="sr-only"> for the take of segment {number}</span>…
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content"
          onCloseAutoFocus={(event) => {
            if (!asked.current) return;
            asked.current = false;
            event.preventDefault();
            onAsked();
          }}
        >
          <Dialog.Title className="dialog-title">Ask for segment {number}'s take again</Dialog.Title>
          <Dialog.Description>The staff member sees this segment marked, with what you write here.</Dialog.Description>
          <form className="stack" onSubmit={(event) => void submit(event)}>
            <label htmlFor={fieldId} className="label">
              What to change (optional)
            </label>
            <textarea
              id={fieldId}
              className="input"
              rows={3}
              maxLength={REVIEW_REASON_MAX_LENGTH}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
            <div className="row dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn">
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={pending}>
                {pending && <span className="spinner" aria-hidden="true" />}
                Ask again
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * Decision 035, review by segment: for the reviewer of a translated recording, each segment's
 * source and translation with its take (length, the take checks' findings, a request to record it
 * again). 'Play source, then take' (PLAY_SEGMENT_KEYS on the chosen row: the row focus was last in)
 * plays the segment's span of the original audio, then its stretch of the current translated
 * recording (its take file when the recording has no span for it). 'Ask again…' asks for the take
 * to be recorded again with what to change (translation.redoTakes); 'Withdraw' takes that back.
 * Shows nothing for an audio whose translation has no segment grid rows.
 */
export function TakeReview({ audioId }: { audioId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const grid = useQuery(trpc.translation.segments.queryOptions({ audioId }, { refetchOnWindowFocus: false }));
  const takes = useQuery(trpc.translation.takes.queryOptions({ audioId }, { refetchOnWindowFocus: false }));
  const audio = useQuery(trpc.audios.get.queryOptions({ audioId }));
  const recording = useQuery(trpc.recordings.get.queryOptions({ audioId }));
  const playback = useSpanPlayback();
  const [chosen, setChosen] = useState(0);
  /** Each row's Play button: focus goes there when the row's request changes (its button is replaced). */
  const playButtons = useRef(new Map<string, HTMLButtonElement>());
  const focusRow = (segmentId: string) => playButtons.current.get(segmentId)?.focus();
  const redo = useMutation(
    trpc.translation.redoTakes.mutationOptions({
      onSuccess: (out) => toast.success(out.message),
      onError: (error) => toast.error(errorMessage(error)),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.translation.takes.queryKey({ audioId }) }),
    }),
  );

  const rows = grid.data?.segments ?? [];
  if (grid.isPending || takes.isPending) {
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading the takes…
      </p>
    );
  }
  if (rows.length === 0) return null;
  const takeOf = new Map((takes.data?.takes ?? []).map((t) => [t.segmentId, t]));
  const spanOf = new Map((takes.data?.spans ?? []).map((s) => [s.segmentId, s]));
  const findingsOf = (id: string) => (takes.data?.checks ?? []).filter((c) => c.segmentId === id);
  const current = Math.min(chosen, rows.length - 1);

  /** What plays for row `index`: its source span, then its take; null with the reason when nothing can. */
  const spansOf = (index: number): { spans: PlayedSpan[]; missing: string | null } => {
    const row = rows[index]!;
    const number = index + 1;
    const spans: PlayedSpan[] = [];
    const audioUrl = audio.data?.audioUrl;
    if (audioUrl && row.startMs !== null) {
      spans.push({ url: audioUrl, startMs: row.startMs, endMs: row.endMs, label: `the source of segment ${number}` });
    }
    const span = spanOf.get(row.id);
    const take = takeOf.get(row.id);
    const recordingUrl = recording.data?.url;
    if (span && recordingUrl) {
      spans.push({
        url: recordingUrl,
        startMs: span.startMs,
        endMs: span.endMs,
        label: `the take of segment ${number}`,
      });
    } else if (take) {
      spans.push({ url: take.url, startMs: 0, endMs: null, label: `the take of segment ${number}` });
    } else {
      return { spans, missing: `Segment ${number} has no take yet.` };
    }
    return { spans, missing: null };
  };

  const playRow = (index: number) => {
    setChosen(index);
    const { spans, missing } = spansOf(index);
    if (spans.length === 0) {
      toast.error(missing ?? `Segment ${index + 1} has nothing to play.`);
      return;
    }
    void playback.play(spans, missing ? `Played segment ${index + 1}. ${missing}` : `Played segment ${index + 1}.`);
  };

  const ask = async (segmentId: string, note: string | null) => {
    try {
      await redo.mutateAsync({ audioId, takes: [{ segmentId, note }] });
      return true;
    } catch {
      return false;
    }
  };

  const pair = grid.data!.pair;
  return (
    <div className="take-review stack">
      <div className="row">
        <button
          type="button"
          className="btn play-chosen-segment"
          aria-keyshortcuts={PLAY_SEGMENT_KEYS}
          onClick={() => playRow(current)}
        >
          Play source, then take of segment {current + 1} ({PLAY_SEGMENT_KEYS})
        </button>
        {playback.playing && (
          <button type="button" className="btn" onClick={playback.stop}>
            Stop
          </button>
        )}
        <span role="status" className="muted" data-testid="take-review-status">
          {playback.status}
        </span>
      </div>
      {/* Focusable, so its rows can be scrolled from the keyboard. */}
      <div className="segment-pairs" role="region" aria-label="Takes by segment" tabIndex={0}>
        <table>
          <caption>
            Each segment's source ({pair.source}), translation ({pair.target}) and take. The row with focus is the one{" "}
            {PLAY_SEGMENT_KEYS} plays.
          </caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time, speaker</th>
              <th scope="col">Source</th>
              <th scope="col">Translation</th>
              <th scope="col">Take</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => {
              const take = takeOf.get(row.id);
              const findings = findingsOf(row.id);
              return (
                <tr
                  key={row.id}
                  aria-current={i === current ? "true" : undefined}
                  data-chosen={i === current || undefined}
                  onFocusCapture={() => setChosen(i)}
                >
                  <td>{i + 1}</td>
                  <td>
                    <SegmentTimeSpeaker startMs={row.startMs} endMs={row.endMs} speaker={row.speaker} />
                  </td>
                  <td lang={htmlLang(pair.source)}>{row.source}</td>
                  <td lang={htmlLang(pair.target)}>{row.target || <span className="muted">(not translated)</span>}</td>
                  <td>
                    {take ? seconds(take.durationMs) : <span className="muted">No take</span>}
                    {findings.map((f) => (
                      <span key={f.check} className="take-finding" data-severity={f.severity}>
                        {f.severity === "error" ? "Error" : "Warning"}: {f.message}
                      </span>
                    ))}
                    {take?.redoNote !== null && take?.redoNote !== undefined && (
                      <span className="segment-to-fix">
                        <span aria-hidden="true">⚑</span> Asked again{take.redoNote ? `: ${take.redoNote}` : ""}
                      </span>
                    )}
                  </td>
                  <td>
                    <div className="row">
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() => playRow(i)}
                        ref={(button) => {
                          if (button) playButtons.current.set(row.id, button);
                          else playButtons.current.delete(row.id);
                        }}
                      >
                        Play<span className="sr-only"> source, then take of segment {i + 1}</span>
                      </button>
                      {take &&
                        (take.redoNote === null ? (
                          <AskAgainDialog
                            number={i + 1}
                            pending={redo.isPending}
                            onAsk={(note) => ask(row.id, note.trim())}
                            onAsked={() => focusRow(row.id)}
                          />
                        ) : (
                          <button
                            type="button"
                            className="btn btn-sm"
                            disabled={redo.isPending}
                            onClick={() => void ask(row.id, null).then(() => focusRow(row.id))}
                          >
                            Withdraw<span className="sr-only"> the request for segment {i + 1}</span>
                          </button>
                        ))}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
