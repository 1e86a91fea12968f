import { useEffect, useState, type MutableRefObject } from "react";
import { takesBlockAssembly, type TakeFinding, type TranslationSegment } from "@tafsiri/domain";
import { useTakes } from "#web/features/translation/hooks/use-takes";

/**
 * What the panel needs of the browser recorder (the recording feature's useMicrophoneRecorder,
 * passed in by the route: one feature does not import another).
 */
export interface TakeRecorder {
  status: "idle" | "requesting" | "recording" | "encoding" | "recorded";
  /** Loudness while recording, 0..1. */
  level: number;
  elapsedMs: number;
  take: { file: File; durationSeconds: number } | null;
  error: string | null;
  start(): void;
  stop(): void;
  discard(): void;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Decision 035, oral translation by segment: the active row's take (play it, record it with
 * Alt+K, upload one, remove it), what the reviewer asked to record again, the take checks with a
 * link to each segment, and 'Make the translated recording' once no check finds an error.
 * `toggleRef` receives the record/stop action the grid's Alt+K calls with the active row's id.
 */
export function TakesPanel({
  audioId,
  rows,
  activeRowId,
  recorder,
  canRecord,
  beforeUpload,
  onGoTo,
  toggleRef,
}: {
  audioId: string;
  rows: readonly TranslationSegment[];
  activeRowId: string | null;
  recorder: TakeRecorder;
  /** The assignee records; a reviewer only listens. */
  canRecord: boolean;
  /** Saves the grid's draft, so the row exists on the server before its take is sent. */
  beforeUpload(): Promise<unknown>;
  onGoTo(rowId: string): void;
  toggleRef: MutableRefObject<((rowId: string) => void) | null>;
}) {
  const { takes, store, remove, assemble } = useTakes(audioId);
  const [recordingFor, setRecordingFor] = useState<string | null>(null);
  const numberOf = (id: string) => rows.findIndex((r) => r.id === id) + 1;
  const byId = new Map((takes.data?.takes ?? []).map((t) => [t.segmentId, t]));
  const checks: TakeFinding[] = takes.data?.checks ?? [];
  const errors = takesBlockAssembly(checks);
  const active = activeRowId ? rows.find((r) => r.id === activeRowId) : undefined;
  const activeTake = active ? byId.get(active.id) : undefined;
  const recording = recorder.status === "recording" || recorder.status === "requesting";

  const toggle = (rowId: string) => {
    if (!canRecord) return;
    if (recording) {
      recorder.stop();
      return;
    }
    setRecordingFor(rowId);
    recorder.start();
  };
  useEffect(() => {
    toggleRef.current = toggle;
  });

  // A finished take goes to the row it was recorded for (each start names its row). The recorder is
  // freed before the take is sent, so the next row's take can start at once without the upload's
  // end cutting it short.
  useEffect(() => {
    const take = recorder.take;
    if (!take || !recordingFor) return;
    const segmentId = recordingFor;
    const number = numberOf(segmentId);
    const file = new File([take.file], `segment-${number}.wav`, { type: "audio/wav" });
    recorder.discard();
    void beforeUpload()
      .then(() => store.mutateAsync({ segmentId, file, number }))
      .catch(() => undefined);
  }, [recorder.take, recordingFor]); // eslint-disable-line react-hooks/exhaustive-deps

  const withText = rows.filter((r) => r.target.trim() !== "").length;
  const withTake = rows.filter((r) => byId.has(r.id)).length;
  return (
    <section className="takes-panel stack" aria-labelledby="takes-title">
      <h3 id="takes-title" className="panel-subtitle">
        Spoken translation, segment by segment
      </h3>
      <p role="status">
        {takes.isPending ? "Loading takes…" : `${withTake} of ${withText} translated segments have a take.`}
      </p>
      {active && (
        <div className="stack take-active">
          <p>
            <strong>Segment {numberOf(active.id)}:</strong>{" "}
            {activeTake ? `take of ${seconds(activeTake.durationMs)}` : "no take yet"}
          </p>
          {activeTake?.redoNote !== null && activeTake?.redoNote !== undefined && (
            <p className="take-redo">
              <span aria-hidden="true">⚑ </span>
              <strong>The reviewer asks to record this take again{activeTake.redoNote ? ":" : "."}</strong>{" "}
              {activeTake.redoNote}
            </p>
          )}
          {activeTake && (
            <audio controls preload="none" src={activeTake.url} aria-label={`Take of segment ${numberOf(active.id)}`} />
          )}
          {canRecord && (
            <div className="row">
              <button
                type="button"
                className="btn"
                onClick={() => toggle(active.id)}
                disabled={recorder.status === "encoding" || store.isPending}
                aria-keyshortcuts="Alt+K"
              >
                {recording ? "Stop (Alt+K)" : activeTake ? "Record again (Alt+K)" : "Record take (Alt+K)"}
              </button>
              <label className="btn">
                Upload a take…
                <input
                  type="file"
                  accept="audio/*"
                  className="sr-only"
                  onChange={(event) => {
                    const file = event.target.files?.[0];
                    event.target.value = "";
                    if (file)
                      void beforeUpload().then(() =>
                        store.mutate({ segmentId: active.id, file, number: numberOf(active.id) }),
                      );
                  }}
                />
              </label>
              {activeTake && (
                <button
                  type="button"
                  className="btn"
                  onClick={() => remove.mutate({ segmentId: active.id })}
                  disabled={remove.isPending}
                >
                  Remove take
                </button>
              )}
            </div>
          )}
          {recording && (
            <p className="row" role="status">
              {/* Said only once the microphone really records (opening it can take a moment on a busy phone). */}
              <span>
                {recorder.status === "requesting" ? "Starting the microphone for segment" : "Recording segment"}{" "}
                {numberOf(recordingFor ?? active.id)}
              </span>
              <meter min={0} max={1} value={recorder.level} aria-label="Microphone level" />
              <span>{seconds(recorder.elapsedMs)}</span>
            </p>
          )}
          {store.isPending && <p role="status">Saving the take…</p>}
          {recorder.error && (
            <p className="field-error" role="alert">
              {recorder.error}
            </p>
          )}
        </div>
      )}
      {checks.length > 0 && (
        <ul className="checks-list take-checks" aria-label="Take checks">
          {checks.map((c) => (
            <li key={`${c.check}-${c.segmentId}`} data-severity={c.severity}>
              {c.severity === "error" ? "Error" : "Warning"}:{" "}
              <button type="button" className="btn-link" onClick={() => onGoTo(c.segmentId)}>
                Segment {numberOf(c.segmentId)}
              </button>
              : {c.message}
            </li>
          ))}
        </ul>
      )}
      {canRecord && (
        <div className="row">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => assemble.mutate({ audioId })}
            disabled={assemble.isPending || errors || withTake === 0}
            aria-describedby={errors ? "assemble-blocked" : undefined}
          >
            {assemble.isPending && <span className="spinner" aria-hidden="true" />}
            Make the translated recording
          </button>
          {errors && (
            <span id="assemble-blocked" className="muted">
              Record the missing or silent takes first.
            </span>
          )}
        </div>
      )}
    </section>
  );
}
