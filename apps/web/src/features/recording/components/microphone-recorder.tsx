import { AudioPlayer } from "@tafsiri/ui/audio-player";
import { formatFileSize } from "@tafsiri/ui/drop-zone";
import type { MicrophoneRecorderState } from "#web/features/recording/hooks/use-microphone-recorder";
import { formatElapsed } from "#web/features/recording/lib/audio-level";
import "#web/styles/audio-player.css";

/** The one action button of each state: what it says and does. */
function actionOf(recorder: MicrophoneRecorderState): { label: string; run: () => void; busy: boolean } {
  switch (recorder.status) {
    case "idle":
      return { label: "Record", run: recorder.start, busy: false };
    case "requesting":
      return { label: "Record", run: recorder.start, busy: true };
    case "recording":
      return { label: "Stop", run: recorder.stop, busy: false };
    case "encoding":
      return { label: "Stop", run: recorder.stop, busy: true };
    case "recorded":
      return { label: "Record again", run: recorder.start, busy: false };
  }
}

/**
 * 'Record' beside the Translated Audio drop zone (SPEC §2.13, decision 018): one action
 * button (Record, Stop, Record again); while recording, the microphone's level as a meter with its
 * percentage and the elapsed time (mm:ss); once stopped, what the take is and a player of it whose
 * waveform is drawn from the peaks kept while recording (nothing is decoded). Problems (refused
 * permission, no microphone, the microphone lost mid-take) show in an alert region. The view of
 * useMicrophoneRecorder, which the upload form owns: the form uploads the take on submit.
 * `disabled` (e.g. while an upload runs) disables starting a take.
 *
 * The section carries data-status (RecorderStatus) and data-elapsed-ms (whole milliseconds), which
 * the browser test reads to compare the take's length with the time recorded.
 *
 * The action button is one element in every state and is only aria-disabled while the recorder is
 * busy, so the keyboard focus stays on it from Record to Stop to Record again.
 */
export function MicrophoneRecorder({
  recorder,
  disabled = false,
}: {
  recorder: MicrophoneRecorderState;
  disabled?: boolean;
}) {
  const { status, take, error } = recorder;
  const action = actionOf(recorder);
  const percent = Math.round(recorder.level * 100);
  const live = status === "recording" || status === "encoding";

  return (
    <section
      className="microphone-recorder"
      aria-labelledby="microphone-recorder-title"
      data-status={status}
      data-elapsed-ms={Math.round(recorder.elapsedMs)}
    >
      <h4 id="microphone-recorder-title" className="microphone-recorder-title">
        Or record with the microphone
      </h4>
      <div className="row microphone-recorder-controls">
        <button
          type="button"
          className={status === "recording" ? "btn btn-danger" : "btn btn-primary"}
          aria-disabled={action.busy || undefined}
          disabled={disabled && !live}
          onClick={() => {
            if (!action.busy) action.run();
          }}
        >
          {action.busy ? (
            <span className="spinner" aria-hidden="true" />
          ) : status === "recording" ? (
            <StopIcon />
          ) : (
            <MicrophoneIcon />
          )}
          {action.label}
        </button>
        {live && (
          <span className="microphone-recorder-elapsed">
            <span className="microphone-recorder-dot" data-live={status === "recording"} aria-hidden="true" />
            {status === "recording" ? "Recording" : "Stopped"}{" "}
            <span role="timer" aria-label="Elapsed time">
              {formatElapsed(recorder.elapsedMs)}
            </span>
          </span>
        )}
      </div>
      {live && (
        <div className="microphone-recorder-level">
          <div
            className="level-meter"
            role="meter"
            aria-label="Microphone level"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={`${percent}%`}
          >
            <div className="level-meter-fill" style={{ width: `${percent}%` }} />
          </div>
          <span className="microphone-recorder-percent" aria-hidden="true">
            Level {percent}%
          </span>
        </div>
      )}
      <div role="alert" className="microphone-recorder-alert">
        {error && <p className="field-error">{error}</p>}
      </div>
      <p className="muted microphone-recorder-note" role="status">
        {status === "requesting" && "Waiting for the microphone… allow it if your browser asks."}
        {status === "recording" && "Speak now; press Stop when the take is done."}
        {status === "encoding" && "Preparing the take…"}
        {status === "recorded" &&
          take &&
          `Take of ${formatElapsed(take.durationSeconds * 1000)} (${formatFileSize(take.file.size)}) ready. Listen to it, then press Upload Audio; nothing is sent before.`}
        {status === "idle" && "The take stays in this browser until you press Upload Audio."}
      </p>
      {status === "recorded" && take && (
        <AudioPlayer
          url={take.url}
          label="Recorded take"
          waveform={{ status: "ready", peaks: take.peaks, durationSeconds: take.durationSeconds }}
        />
      )}
    </section>
  );
}

/** A 24×24 icon of one path in the text colour, hidden from assistive technology. */
function Icon({ d }: { d: string }) {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d={d} />
    </svg>
  );
}

function MicrophoneIcon() {
  return (
    <Icon d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11h-2z" />
  );
}

function StopIcon() {
  return <Icon d="M7 7h10v10H7z" />;
}
