import { describe, expect, it } from "vitest";
import { displayTime, longTime, shortTime } from "./dates";

// Times without a zone are read in the local zone, as the browser shows them, so these hold in any zone.

describe("displayTime (SPEC §9: banners and notifications)", () => {
  it("gives the full date with an ordinal day and the time relative to now", () => {
    const now = new Date(2026, 10, 21, 15, 4, 30);
    expect(displayTime("2026-11-21T15:04:05", now)).toEqual({
      relative: "a few seconds ago",
      full: "November 21st 2026, 3:04:05 PM",
    });
    expect(displayTime("2026-11-21T13:00:00", now).relative).toBe("2 hours ago");
    expect(displayTime("2026-11-02T09:00:00", now).full).toBe("November 2nd 2026, 9:00:00 AM");
  });
});

describe("shortTime (table cells)", () => {
  it("gives a short date and time", () => {
    expect(shortTime("2026-11-23T16:19:00")).toBe("Nov 23 2026, 4:19 PM");
  });
});

describe("longTime (SPEC §9: dates in lists, en-US long form with the time)", () => {
  it("reads like 'November 23, 2026 at 4:54 PM', with a plain space before AM/PM", () => {
    expect(longTime("2026-11-23T16:54:00")).toBe("November 23, 2026 at 4:54 PM");
    expect(longTime("2026-01-05T09:07:00")).toBe("January 5, 2026 at 9:07 AM");
    // spec-wording.spec.ts, "Submissions 'Last updated' reads like…": the SPEC's form.
    expect(longTime("2026-11-23T00:30:00")).toMatch(
      /^(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4} at \d{1,2}:\d{2} (AM|PM)$/,
    );
  });
});
