import { describe, expect, it } from "vitest";
import {
  criteriaMet,
  isStrongPassword,
  PASSWORD_CRITERIA,
  passwordStrength,
  WEAK_PASSWORD_DESCRIPTION,
  WEAK_PASSWORD_MESSAGE,
} from "../src/password-rules";

describe("passwordStrength (SPEC §4: Weak 1-2 criteria, Moderate 3-4, Strong all 5)", () => {
  it("counts the five criteria: length 8, upper case, lower case, a number, a special character", () => {
    expect(criteriaMet("")).toBe(0);
    expect(criteriaMet("abcdefgh")).toBe(2);
    expect(criteriaMet("Abcdefg1")).toBe(4);
    expect(criteriaMet("A")).toBe(1);
    expect(criteriaMet("1")).toBe(1);
    expect(criteriaMet("!")).toBe(1);
    expect(criteriaMet("Zaw4di!Strong")).toBe(5);
  });

  it("labels the passwords the account and reset forms are given", () => {
    // accounts.spec.ts, 'validates on every change…': the meter reads Weak, then Moderate, then Strong.
    expect(passwordStrength("weakpass")).toBe("Weak");
    expect(passwordStrength("Moderate1")).toBe("Moderate");
    expect(passwordStrength("Zaw4di!Strong")).toBe("Strong");
    expect(passwordStrength("N3w-Str0ng-pass!")).toBe("Strong");
  });

  it("puts the boundaries at 3 and 5 criteria", () => {
    expect(passwordStrength("")).toBe("Weak");
    expect(passwordStrength("abcdefgh")).toBe("Weak");
    expect(passwordStrength("abcdefgH")).toBe("Moderate");
    expect(passwordStrength("abcdefH1")).toBe("Moderate");
    expect(passwordStrength("Ab1!")).toBe("Moderate");
    expect(passwordStrength("Ab1!efgh")).toBe("Strong");
  });

  it("counts a space or a non-Latin letter as a special character", () => {
    expect(passwordStrength("Abcdefg 1")).toBe("Strong");
    expect(passwordStrength("Abcdéfg1")).toBe("Strong");
  });

  it("says what a Strong password needs when it refuses a weaker one (SPEC §5)", () => {
    expect(WEAK_PASSWORD_MESSAGE).toBe("Password is weak");
    expect(WEAK_PASSWORD_DESCRIPTION).toContain("at least 8 characters long");
  });
});

describe("PASSWORD_CRITERIA and isStrongPassword (SPEC §5)", () => {
  it("lists the five criteria in the SPEC's order and accepts only a Strong password", () => {
    expect(PASSWORD_CRITERIA.map((c) => c.label)).toEqual([
      "at least 8 characters",
      "an uppercase letter",
      "a lowercase letter",
      "a number",
      "a special character",
    ]);
    expect(isStrongPassword("Ab1!efgh")).toBe(true);
    expect(isStrongPassword("Abcdefg1")).toBe(false);
  });
});
