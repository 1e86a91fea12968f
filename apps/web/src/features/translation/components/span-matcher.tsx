import { useRef, type KeyboardEvent } from "react";
import { playerWaveform } from "@tafsiri/ui/audio-player";
import { SpanWaveform, type SpanWaveformHandle } from "@tafsiri/ui/span-waveform";
import type { AudioDetail } from "#web/lib/api-types";
import { BIG_NUDGE_MS, NUDGE_MS, useSpanMatching } from "#web/features/translation/hooks/use-span-matching";
import "#web/styles/audio-player.css";
import "#web/features/translation/span-matcher.css";

/** `ms` as the seconds an input shows (to the millisecond). */
const secondsOf = (ms: number) => Math.round(ms) / 1000;

/** A translation shortened for the list (the grid has it whole). */
function shortText(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "(no translation)";
  return trimmed.length > 60 ? `${trimmed.slice(0, 57)}…` : trimmed;
}

/**
 * A time of a span in seconds: typed, or nudged with ↑/↓ (NUDGE_MS; with Shift BIG_NUDGE_MS).
 * `onMs` receives the new time in ms.
 */
function TimeInput({ label, ms, onMs }: { label: string; ms: number; onMs(ms: number): void }) {
  const nudge = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    event.preventDefault();
    const step = event.shiftKey ? BIG_NUDGE_MS : NUDGE_MS;
    onMs(ms + (event.key === "ArrowUp" ? step : -step));
  };
  return (
    <input
      type="number"
      className="input span-time"
      aria-label={label}
      step="any"
      min={0}
      value={secondsOf(ms)}
      onKeyDown={nudge}
      onChange={(e) => {
        const seconds = Number(e.target.value);
        if (e.target.value !== "" && Number.isFinite(seconds)) onMs(seconds * 1000);
      }}
    />
  );
}

/**
 * SPEC §2.13, decision 035: 'Match the recording to the segments', for the staff member who uploaded
 * one whole translated recording while it has no span for every segment (or once they have begun).
 * 'Propose spans' asks the voice activity detector; the waveform shows one numbered region per
 * segment (drag or resize it), and the list beside it edits the same times from the keyboard
 * (seconds; ↑/↓ move 0.05 s, with Shift 0.5 s) and plays each span; 'Confirm spans' stores them.
 */
export function SpanMatcher({ audio }: { audio: AudioDetail }) {
  const matching = useSpanMatching(audio.id);
  const waveRef = useRef<SpanWaveformHandle>(null);
  const { recording, rows, draft, problem } = matching;
  if (!matching.editable || !recording?.url) return null;
  if (!matching.needed && draft === null) {
    // Spans staff confirmed earlier stay editable; spans made from the takes need no matching.
    if (!matching.confirmedStored) return null;
    return (
      <section className="card row span-matcher" aria-label="Match the recording to the segments">
        <p>Every segment has its span in the recording.</p>
        <button type="button" className="btn" onClick={matching.editStored}>
          Edit the spans
        </button>
      </section>
    );
  }
  const proposing = matching.propose.isPending;
  const textOf = new Map(rows.map((r, i) => [r.id, { number: i + 1, target: r.target }]));

  return (
    <section className="card stack span-matcher" aria-labelledby="span-matcher-title">
      <h2 className="panel-title" id="span-matcher-title">
        Match the recording to the segments
      </h2>
      <p className="muted">
        The recording was uploaded in one file. Propose where each segment is spoken, check each span (drag it on the
        waveform, or change its times below) and confirm.
      </p>
      <div className="row">
        <button
          type="button"
          className="btn"
          onClick={() => matching.propose.mutate()}
          disabled={proposing || matching.saving}
        >
          {proposing && <span className="spinner" aria-hidden="true" />}
          {proposing ? "Finding the speech…" : draft ? "Propose spans again" : "Propose spans"}
        </button>
      </div>
      {proposing && (
        <p className="muted" role="status">
          Finding where each segment is spoken. A long recording takes a while.
        </p>
      )}
      {draft && (
        <>
          <SpanWaveform
            ref={waveRef}
            url={recording.url}
            label="Translated recording with the segments' spans"
            waveform={playerWaveform(recording.waveform)}
            spans={draft.spans.map((s, i) => ({
              key: s.segmentId,
              label: String(i + 1),
              startMs: s.startMs,
              endMs: s.endMs,
            }))}
            onSpanChange={matching.move}
          />
          <div className="table-wrap">
            <table className="table span-table">
              <caption className="sr-only">Each segment's span in the recording, in seconds</caption>
              <thead>
                <tr>
                  <th scope="col">Segment</th>
                  <th scope="col">Translation</th>
                  <th scope="col">Start (s)</th>
                  <th scope="col">End (s)</th>
                  <th scope="col">Listen</th>
                </tr>
              </thead>
              <tbody>
                {draft.spans.map((span, i) => {
                  const row = textOf.get(span.segmentId);
                  const number = row?.number ?? i + 1;
                  return (
                    <tr key={span.segmentId} data-segment={number}>
                      <th scope="row">{number}</th>
                      <td>{shortText(row?.target ?? "")}</td>
                      <td>
                        <TimeInput
                          label={`Segment ${number} start, seconds`}
                          ms={span.startMs}
                          onMs={(ms) => matching.move(i, ms, span.endMs)}
                        />
                      </td>
                      <td>
                        <TimeInput
                          label={`Segment ${number} end, seconds`}
                          ms={span.endMs}
                          onMs={(ms) => matching.move(i, span.startMs, ms)}
                        />
                      </td>
                      <td>
                        <button
                          type="button"
                          className="btn btn-sm"
                          aria-label={`Play segment ${number}`}
                          onClick={() => waveRef.current?.playSpan(i)}
                        >
                          Play
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {problem && (
            <p className="field-error" role="alert" id="span-problem">
              {problem}
            </p>
          )}
          <div className="row">
            <button
              type="button"
              className="btn btn-primary"
              onClick={matching.confirm}
              disabled={matching.saving || problem !== null}
              aria-describedby={problem ? "span-problem" : undefined}
            >
              {matching.saving && <span className="spinner" aria-hidden="true" />}
              {matching.saving ? "Saving…" : "Confirm spans"}
            </button>
            {draft.confirmed && (
              <span className="muted" role="status">
                ✓ Spans confirmed
              </span>
            )}
          </div>
        </>
      )}
    </section>
  );
}
