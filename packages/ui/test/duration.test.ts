import { describe, expect, it } from "vitest";
import { formatDuration, isoDuration } from "../src/duration";

describe("formatDuration (one format for every screen: m:ss under an hour, h:mm:ss from an hour)", () => {
  it("writes minutes and two-digit seconds under an hour", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(7)).toBe("0:07");
    expect(formatDuration(245.3)).toBe("4:05");
    expect(formatDuration(3599.4)).toBe("59:59");
  });

  it("writes hours, two-digit minutes and seconds from an hour", () => {
    expect(formatDuration(3600)).toBe("1:00:00");
    expect(formatDuration(3723.4)).toBe("1:02:03");
    expect(formatDuration(36_000 + 59 * 60 + 59)).toBe("10:59:59");
  });

  it("rounds to the nearest second before splitting, so 59:59.6 reads 1:00:00", () => {
    expect(formatDuration(3599.6)).toBe("1:00:00");
    expect(formatDuration(59.5)).toBe("1:00");
  });

  it("treats negative and non-finite input as 0", () => {
    expect(formatDuration(-3)).toBe("0:00");
    expect(formatDuration(Number.NaN)).toBe("0:00");
  });

  it("gives the ISO 8601 duration of <time datetime>", () => {
    expect(isoDuration(3723.4)).toBe("PT1H2M3S");
    expect(isoDuration(245.3)).toBe("PT0H4M5S");
  });
});
