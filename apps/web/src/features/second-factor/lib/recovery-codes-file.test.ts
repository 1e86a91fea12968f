import { describe, expect, it } from "vitest";
import { recoveryCodesFile } from "./recovery-codes-file";

describe("recoveryCodesFile (decision 038)", () => {
  it("names the account and the day, then lists the codes one a line", () => {
    const text = recoveryCodesFile(
      ["abcde-23456", "fghij-77777"],
      "amina@example.org",
      new Date("2026-12-07T08:00:00Z"),
    );
    const lines = text.split("\n");
    expect(lines[0]).toBe("Tafsiri recovery codes for amina@example.org");
    expect(lines[1]).toMatch(/^Made 2026-12-07\. /);
    expect(lines.slice(4, 6)).toEqual(["abcde-23456", "fghij-77777"]);
    expect(text.endsWith("\n")).toBe(true);
  });
});
