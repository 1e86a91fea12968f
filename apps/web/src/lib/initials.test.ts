import { describe, expect, it } from "vitest";
import { initials } from "./initials";

describe("initials (the avatar circle)", () => {
  it("takes the first letters of the first two words of a name", () => {
    expect(initials("amina.juma")).toBe("AJ");
    expect(initials("Samuel Staff")).toBe("SS");
    expect(initials("dash_amina")).toBe("DA");
    expect(initials("a-b-c")).toBe("AB");
  });

  it("takes the first two letters of a one-word name", () => {
    expect(initials("zawadi")).toBe("ZA");
    expect(initials("  kevin ")).toBe("KE");
    expect(initials("k")).toBe("K");
  });
});
