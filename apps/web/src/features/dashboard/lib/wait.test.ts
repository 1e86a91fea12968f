import { describe, expect, it } from "vitest";
import { formatWait, spokenWait } from "./wait";

describe("formatWait and spokenWait (decision 025: the Reviews section's median wait)", () => {
  it("shows '< 1 min' under a minute, spoken 'less than a minute'", () => {
    expect(formatWait(0)).toBe("< 1 min");
    expect(formatWait(59.9)).toBe("< 1 min");
    expect(formatWait(-5)).toBe("< 1 min");
    expect(spokenWait(30)).toBe("less than a minute");
  });

  it("shows the two largest units, whole minutes rounded down", () => {
    expect(formatWait(60)).toBe("1 min");
    expect(formatWait(45 * 60 + 59)).toBe("45 min");
    expect(formatWait(3 * 3600)).toBe("3 h");
    expect(formatWait(3 * 3600 + 20 * 60)).toBe("3 h 20 min");
    expect(formatWait(2 * 86_400 + 4 * 3600 + 59 * 60)).toBe("2 d 4 h");
    expect(formatWait(86_400 + 30 * 60)).toBe("1 d");
  });

  it("spells the units out for screen readers, singular and plural", () => {
    expect(spokenWait(60)).toBe("1 minute");
    expect(spokenWait(3 * 3600 + 20 * 60)).toBe("3 hours 20 minutes");
    expect(spokenWait(3600 + 60)).toBe("1 hour 1 minute");
    expect(spokenWait(86_400 + 3600)).toBe("1 day 1 hour");
    expect(spokenWait(2 * 86_400)).toBe("2 days");
  });
});
