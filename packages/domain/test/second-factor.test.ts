import { describe, expect, it } from "vitest";
import { normalizeSecondFactorCode, secondFactorCodeKind, secondFactorLockedMessage } from "../src/second-factor";

describe("second-factor codes (decision 038)", () => {
  it("reads spaces, capitals and a missing dash as the code meant", () => {
    expect(normalizeSecondFactorCode(" 123 456 ")).toBe("123456");
    expect(normalizeSecondFactorCode("K7DQM3XW2A")).toBe("k7dqm-3xw2a");
    expect(normalizeSecondFactorCode("k7dqm-3xw2a")).toBe("k7dqm-3xw2a");
    expect(normalizeSecondFactorCode("")).toBe("");
  });

  it("tells an app's code from a recovery code, and neither", () => {
    expect(secondFactorCodeKind("123456")).toBe("totp");
    expect(secondFactorCodeKind("k7dqm-3xw2a")).toBe("recovery-code");
    for (const bad of ["12345", "1234567", "k7dqm-3xw21", "k7dqm3xw2a", "K7DQM-3XW2A", "12-34!", ""]) {
      expect(secondFactorCodeKind(bad), bad).toBeNull();
    }
  });

  it("says how long to wait, in whole minutes", () => {
    expect(secondFactorLockedMessage(15 * 60_000)).toBe("Too many wrong codes. Try again in 15 minutes.");
    expect(secondFactorLockedMessage(61_000)).toBe("Too many wrong codes. Try again in 2 minutes.");
    expect(secondFactorLockedMessage(5_000)).toBe("Too many wrong codes. Try again in 1 minute.");
  });
});
