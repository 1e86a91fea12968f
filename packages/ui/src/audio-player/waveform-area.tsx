import type { Ref } from "react";
import type { WaveformView } from "./use-waveform-peaks";

/** What the waveform area says while the server is still preparing the peaks (the audio plays). */
const WAVEFORM_PENDING_TEXT = "Waveform is being prepared";
/** What the waveform area says when there are no peaks to draw: the server could not decode the file. */
const WAVEFORM_UNAVAILABLE_TEXT = "Waveform not available";

/**
 * The waveform area's messages sit at its top, over the cursor and the selected part, on the area's
 * background, and let clicks through to the waveform (seeking).
 */
const NOTE_STYLE = { pointerEvents: "none", alignItems: "flex-start", paddingTop: "0.75rem", zIndex: 10 } as const;
const NOTE_TEXT_STYLE = { background: "#f8fafc", padding: "0 0.5rem", borderRadius: "4px" } as const;

/**
 * The waveform area (decision 023): the element wavesurfer draws in (`containerRef`), 'Loading'
 * over it while `loading`, and WAVEFORM_PENDING_TEXT or WAVEFORM_UNAVAILABLE_TEXT when `view` has
 * no peaks to draw (the audio plays all the same).
 */
export function WaveformArea({
  containerRef,
  loading,
  view,
}: {
  containerRef: Ref<HTMLDivElement>;
  loading: boolean;
  view: WaveformView;
}) {
  return (
    <div className="audio-player-wave">
      <div ref={containerRef} />
      {loading && (
        <p className="audio-player-overlay" role="status" style={{ pointerEvents: "none" }}>
          <span className="spinner" aria-hidden="true" /> Loading
        </p>
      )}
      {(view === "pending" || view === "unavailable") && (
        <p className="audio-player-overlay audio-player-wave-note" role="status" style={NOTE_STYLE}>
          <span style={NOTE_TEXT_STYLE}>{view === "pending" ? WAVEFORM_PENDING_TEXT : WAVEFORM_UNAVAILABLE_TEXT}</span>
        </p>
      )}
    </div>
  );
}
