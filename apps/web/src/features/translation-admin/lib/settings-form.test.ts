import { describe, expect, it } from "vitest";
import { languageCodes, programmePairs, settingsErrors, settingsFormOf, settingsInput } from "./settings-form";

const SETTINGS = {
  sourceLanguages: ["eng", "lug"],
  targetLanguage: "swa",
  staffWriteSource: true,
  keepChatMarkers: false,
};

describe("the 'Languages and rules' form (decision 035)", () => {
  it("shows saved settings and sends them back unchanged", () => {
    const form = settingsFormOf(SETTINGS);
    expect(form.sourceLanguages).toBe("eng, lug");
    expect(settingsErrors(form)).toEqual({});
    expect(settingsInput(form)).toEqual(SETTINGS);
  });

  it("splits the source languages on commas, semicolons and spaces, lower-cased, each once, the first kept first", () => {
    expect(languageCodes(" LUG, eng ;; swa  ")).toEqual(["lug", "eng", "swa"]);
    const form = { ...settingsFormOf(SETTINGS), sourceLanguages: "lug eng, LUG", targetLanguage: " SWA " };
    expect(settingsInput(form)).toMatchObject({ sourceLanguages: ["lug", "eng"], targetLanguage: "swa" });
  });

  it("refuses a code that is not ISO 639-3 (LANGUAGE_CODE), naming it, and an empty field", () => {
    const errors = (sourceLanguages: string, targetLanguage = "swa") =>
      settingsErrors({ ...settingsFormOf(SETTINGS), sourceLanguages, targetLanguage });
    expect(errors("eng, en").sourceLanguages).toMatch(/^"en" is not an ISO 639-3 code/);
    expect(errors("eng, engl").sourceLanguages).toMatch(/^"engl" is not/);
    expect(errors(" , ").sourceLanguages).toMatch(/at least one source language/);
    expect(errors("eng", "sw1").targetLanguage).toMatch(/^"sw1" is not/);
    expect(errors("eng", "").targetLanguage).toMatch(/^Give a language code/);
    expect(errors("eng", "Swa")).toEqual({});
  });

  it("offers each source language into the target language, the default first", () => {
    expect(programmePairs(SETTINGS)).toEqual([
      { source: "eng", target: "swa" },
      { source: "lug", target: "swa" },
    ]);
  });
});
