/**
 * What the in-browser recorder (decision 018, SPEC §2.13) tells the user when the microphone
 * cannot be used, shown in its alert region. Each says what happened and what to do next.
 */

const MICROPHONE_REFUSED =
  "Microphone access was refused. Allow the microphone in your browser's site settings and press Record again.";
const NO_MICROPHONE = "No microphone was found. Connect a microphone and press Record again.";
const MICROPHONE_BUSY =
  "The microphone could not be started; another application may be using it. Close that application and press Record again.";
export const RECORDING_UNSUPPORTED =
  "This browser cannot record here: recording needs a secure (https) connection and a recent browser. You can still upload an audio file.";
export const MICROPHONE_LOST =
  "The microphone stopped during the take: its permission was withdrawn or it was unplugged. Check the microphone and press Record again.";
export const MICROPHONE_LOST_KEPT = `${MICROPHONE_LOST} The part recorded before it stopped is kept below.`;
export const TAKE_UNREADABLE =
  "The take could not be read: nothing may have been recorded. Press Record again, or upload an audio file.";
export const RECORDING_FAILED = "The recording failed. Press Record again, or upload an audio file.";

/**
 * The message for a failed `getUserMedia` or MediaRecorder start, by the DOMException's name:
 * NotAllowedError or SecurityError (refused, or blocked by a policy) → MICROPHONE_REFUSED;
 * NotFoundError or OverconstrainedError → NO_MICROPHONE; NotReadableError or AbortError →
 * MICROPHONE_BUSY; NotSupportedError → RECORDING_UNSUPPORTED; anything else → RECORDING_FAILED.
 */
export function microphoneErrorMessage(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
    case "PermissionDeniedError":
      return MICROPHONE_REFUSED;
    case "NotFoundError":
    case "DevicesNotFoundError":
    case "OverconstrainedError":
      return NO_MICROPHONE;
    case "NotReadableError":
    case "TrackStartError":
    case "AbortError":
      return MICROPHONE_BUSY;
    case "NotSupportedError":
      return RECORDING_UNSUPPORTED;
    default:
      return RECORDING_FAILED;
  }
}
