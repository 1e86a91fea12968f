import { describe, expect, it } from "vitest";
import { emailError, passwordError, returnPath } from "./validation";

describe("the sign-in form's checks (SPEC §5)", () => {
  it("asks for an email, blank or empty", () => {
    expect(emailError("")).toBe("Email is required");
    expect(emailError("   ")).toBe("Email is required");
    expect(emailError("amina@example.test")).toBeUndefined();
  });

  it("asks for a password, but takes one of spaces as typed", () => {
    expect(passwordError("")).toBe("Password is required");
    expect(passwordError("  ")).toBeUndefined();
  });
});

describe("returnPath (back to the page asked for after signing in, SPEC §2.4)", () => {
  it("returns to a page of this site", () => {
    expect(returnPath({ from: "/audiomanagement/audiocontrol" })).toBe("/audiomanagement/audiocontrol");
    expect(returnPath({ from: "/submission/general?status=needsReview" })).toBe(
      "/submission/general?status=needsReview",
    );
  });

  it("never to another site, nor to the sign-in or reset pages", () => {
    expect(returnPath({ from: "//evil.example/path" })).toBeUndefined();
    expect(returnPath({ from: "https://evil.example/" })).toBeUndefined();
    expect(returnPath({ from: "/signin" })).toBeUndefined();
    expect(returnPath({ from: "/SignIn?x=1" })).toBeUndefined();
    expect(returnPath({ from: "/reset-password/abc" })).toBeUndefined();
  });

  it("ignores a state that names no page", () => {
    expect(returnPath(null)).toBeUndefined();
    expect(returnPath("/Audios")).toBeUndefined();
    expect(returnPath({})).toBeUndefined();
    expect(returnPath({ from: 42 })).toBeUndefined();
  });
});
