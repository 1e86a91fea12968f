import { describe, expect, it } from "vitest";
import { formatLineTime, formatTranscript, parseTranscript, type TranscriptLine } from "../src/transcript-lines";

describe("transcript lines", () => {
  it("reads a transcript written before speakers and times as the participant's, untimed", () => {
    expect(parseTranscript("Hello there.\n\nBye.")).toEqual([
      { speaker: "PAR", startMs: null, text: "Hello there." },
      { speaker: "PAR", startMs: null, text: "" },
      { speaker: "PAR", startMs: null, text: "Bye." },
    ]);
    expect(formatTranscript(parseTranscript("Hello there.\n\nBye."))).toBe("Hello there.\n\nBye.");
  });

  it("stores the investigator and start times as line prefixes and reads them back", () => {
    const lines: TranscriptLine[] = [
      { speaker: "INV", startMs: 62_345, text: "Where did you grow up?" },
      { speaker: "PAR", startMs: 65_000, text: "In Gulu." },
      { speaker: "PAR", startMs: 3_725_004, text: "Later." },
      { speaker: "INV", startMs: null, text: "" },
    ];
    const text = formatTranscript(lines);
    expect(text).toBe("[1:02.345] *INV: Where did you grow up?\n[1:05.000] In Gulu.\n[1:02:05.004] Later.\n*INV:");
    expect(parseTranscript(text)).toEqual(lines);
  });

  it("round-trips text that itself looks like a prefix", () => {
    const lines: TranscriptLine[] = [
      { speaker: "PAR", startMs: null, text: "*INV: said nothing" },
      { speaker: "PAR", startMs: null, text: "[0:01.000] not a time" },
      { speaker: "INV", startMs: 1000, text: "[2:00] also text" },
    ];
    expect(parseTranscript(formatTranscript(lines))).toEqual(lines);
  });

  it("writes times as m:ss.mmm, with hours from an hour on", () => {
    expect(formatLineTime(0)).toBe("[0:00.000]");
    expect(formatLineTime(59_999.6)).toBe("[1:00.000]");
    expect(formatLineTime(3_600_000)).toBe("[1:00:00.000]");
  });
});
