import { describe, expect, it } from "vitest";
import { keyClashes, KEY_SCREENS, normalizedKeys } from "./key-registry";

describe("key registry (decision 035)", () => {
  it("binds no key twice on one screen", () => {
    for (const [screen, keys] of Object.entries(KEY_SCREENS)) {
      expect({ screen, clashes: keyClashes(keys) }).toEqual({ screen, clashes: [] });
    }
  });

  it("finds a clash whatever the spelling, as the toaster's Alt+T and the editor's Alt+T were", () => {
    expect(normalizedKeys("Shift+alt+T")).toBe("alt+shift+t");
    expect(keyClashes(["Alt+T", "alt+t", "Alt+Shift+T", "Ctrl+↓", "Control+ArrowDown"])).toEqual([
      "alt+t",
      "ctrl+arrowdown",
    ]);
  });
});
