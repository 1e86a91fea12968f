import { describe, expect, it } from "vitest";
import { DEFAULT_EXPORT_FORM, exportChoice } from "./export-form";

describe("exportChoice (the Export form as exports.create takes it)", () => {
  it("sends the server's defaults as they are", () => {
    expect(exportChoice(DEFAULT_EXPORT_FORM)).toEqual({
      category: "both",
      status: "completed",
      approvedFrom: null,
      approvedTo: null,
      chat: { languages: ["eng"], participantRole: "Participant", corpus: "tafsiri" },
      includeRestricted: false,
    });
  });

  it("splits the languages on commas and spaces, lower-cased, the main one first", () => {
    const languages = (typed: string) => exportChoice({ ...DEFAULT_EXPORT_FORM, languages: typed }).chat?.languages;
    expect(languages(" LUG, eng ,, swa  ")).toEqual(["lug", "eng", "swa"]);
    expect(languages("  ")).toEqual([]);
  });

  it("sends the chosen days, the corpus trimmed, and the other choices as made", () => {
    const choice = exportChoice({
      ...DEFAULT_EXPORT_FORM,
      category: "Control",
      status: "approved-transcript",
      approvedFrom: "2026-02-01",
      approvedTo: "2026-02-28",
      participantRole: "Target_Adult",
      corpus: " memory-voices ",
      includeRestricted: true,
    });
    expect(choice).toEqual({
      category: "Control",
      status: "approved-transcript",
      approvedFrom: "2026-02-01",
      approvedTo: "2026-02-28",
      chat: { languages: ["eng"], participantRole: "Target_Adult", corpus: "memory-voices" },
      includeRestricted: true,
    });
  });
});
