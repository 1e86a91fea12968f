import { describe, expect, it } from "vitest";
import { microphoneErrorMessage, RECORDING_FAILED, RECORDING_UNSUPPORTED } from "./microphone-messages";

const failure = (name: string) => new DOMException("", name);

describe("microphoneErrorMessage (SPEC §2.13: what happened and what to do next)", () => {
  it("says a refusal is the browser's setting to change", () => {
    const refused =
      "Microphone access was refused. Allow the microphone in your browser's site settings and press Record again.";
    expect(microphoneErrorMessage(failure("NotAllowedError"))).toBe(refused);
    expect(microphoneErrorMessage(failure("SecurityError"))).toBe(refused);
  });

  it("tells a missing microphone from a busy one", () => {
    expect(microphoneErrorMessage(failure("NotFoundError"))).toBe(
      "No microphone was found. Connect a microphone and press Record again.",
    );
    expect(microphoneErrorMessage(failure("OverconstrainedError"))).toContain("No microphone was found.");
    expect(microphoneErrorMessage(failure("NotReadableError"))).toBe(
      "The microphone could not be started; another application may be using it. Close that application and press Record again.",
    );
    expect(microphoneErrorMessage(failure("AbortError"))).toContain("another application may be using it");
  });

  it("offers the upload instead where recording cannot work, or failed for another reason", () => {
    expect(microphoneErrorMessage(failure("NotSupportedError"))).toBe(RECORDING_UNSUPPORTED);
    expect(microphoneErrorMessage(new TypeError("boom"))).toBe(RECORDING_FAILED);
    expect(microphoneErrorMessage("not an error")).toBe(RECORDING_FAILED);
    expect(RECORDING_FAILED).toBe("The recording failed. Press Record again, or upload an audio file.");
  });
});
