import { describe, expect, it } from "vitest";
import { ageBand, ageInMonthsOn, chatAge } from "../src/participant-age";

describe("participant age", () => {
  it("counts whole months from a date of birth to the session", () => {
    expect(ageInMonthsOn({ birthDate: "1950-03-15", ageMonths: null, ageRecordedOn: null }, "2026-03-14")).toBe(
      75 * 12 + 11,
    );
    expect(ageInMonthsOn({ birthDate: "1950-03-15", ageMonths: null, ageRecordedOn: null }, "2026-03-15")).toBe(
      76 * 12,
    );
  });

  it("moves a recorded age on to the session's day", () => {
    expect(ageInMonthsOn({ birthDate: null, ageMonths: 870, ageRecordedOn: "2026-01-01" }, "2026-07-01")).toBe(876);
    expect(ageInMonthsOn({ birthDate: null, ageMonths: 870, ageRecordedOn: null }, "2026-07-01")).toBe(870);
    expect(ageInMonthsOn({ birthDate: null, ageMonths: null, ageRecordedOn: null }, "2026-07-01")).toBeNull();
  });

  it("writes CHAT ages and bands", () => {
    expect(chatAge(72 * 12 + 3)).toBe("72;03.");
    expect(ageBand(null)).toBe("unknown");
    expect(ageBand(49 * 12 + 11)).toBe("under 50");
    expect(ageBand(72 * 12)).toBe("70–79");
    expect(ageBand(95 * 12)).toBe("90+");
  });
});
