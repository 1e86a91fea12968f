import { describe, expect, it } from "vitest";
import { audioLanguagesOf, languageErrors, ownPairLabel, pairLabel } from "./audio-languages";

const BAD_CODE = "A language is an ISO 639-3 code of three lower-case letters, such as eng or swa.";

describe("an audio's own languages in the browser (decision 035)", () => {
  it("takes empty fields as the programme's and codes trimmed and lower-cased", () => {
    expect(audioLanguagesOf({ source: " LUG ", target: "" })).toEqual({ sourceLanguage: "lug", targetLanguage: null });
    expect(languageErrors({ source: " LUG ", target: "  " })).toEqual({});
  });

  it("refuses, field by field, what is not three letters, with the server's message", () => {
    expect(languageErrors({ source: "lu", target: "en1" })).toEqual({ source: BAD_CODE, target: BAD_CODE });
    expect(languageErrors({ source: "lug", target: "e n" })).toEqual({ target: BAD_CODE });
  });

  it("labels an audio's own pair, the programme's filling the language it leaves open", () => {
    const programme = { source: "eng", target: "swa" };
    expect(pairLabel(programme)).toBe("eng → swa");
    expect(ownPairLabel({ sourceLanguage: "lug", targetLanguage: "eng" }, programme)).toBe("lug → eng");
    expect(ownPairLabel({ sourceLanguage: "nyn", targetLanguage: null }, programme)).toBe("nyn → swa");
    expect(ownPairLabel({ sourceLanguage: null, targetLanguage: null }, programme)).toBeNull();
    expect(ownPairLabel({ sourceLanguage: null, targetLanguage: "fra" }, null)).toBe("the programme's → fra");
  });
});
