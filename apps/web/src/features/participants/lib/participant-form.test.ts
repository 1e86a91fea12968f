import { describe, expect, it } from "vitest";
import {
  emptyForm,
  fieldOfMessage,
  formErrors,
  formOf,
  inputOf,
  newScoreRow,
  type ParticipantForm,
} from "./participant-form";
import type { Participant } from "./participant-types";

/** A form that passes every check (P0042, Dementia), with `changes`. */
function form(changes: Partial<ParticipantForm> = {}): ParticipantForm {
  return { ...emptyForm(), code: "P0042", group: "Dementia", ...changes };
}

const SAVED: Participant = {
  id: "p1",
  code: "P0042",
  group: "Dementia",
  sex: "female",
  birthDate: null,
  ageMonths: 72 * 12 + 3,
  ageRecordedOn: "2026-01-15",
  ageMonthsToday: 72 * 12 + 5,
  educationYears: 6,
  languages: ["lug", "eng"],
  scores: [{ instrument: "MMSE", score: 22, takenOn: "2026-01-20" }],
  notes: "",
  consentStatus: "given",
  consentDate: "2026-01-15",
  consentDocumentName: null,
  audioCount: 0,
  createdAt: "2026-01-15T10:00:00.000Z",
  updatedAt: "2026-01-15T10:00:00.000Z",
};

describe("the participant panel's checks (decision 024; the server's messages)", () => {
  it("asks for the code and the group, and passes a form with both", () => {
    expect(formErrors(emptyForm())).toEqual({
      code: "Participant code is required",
      group: "Group is required",
    });
    expect(formErrors(form())).toEqual({});
    expect(formErrors(form({ code: "   " })).code).toBe("Participant code is required");
  });

  it("takes a pseudonym of 1 to 20 letters, digits, '_' or '-' as the code", () => {
    const message =
      "A participant code is 1 to 20 letters, digits, '_' or '-' (a pseudonym such as P0042, never a name).";
    expect(formErrors(form({ code: "Amina Juma" })).code).toBe(message);
    expect(formErrors(form({ code: "P".repeat(21) })).code).toBe(message);
    expect(formErrors(form({ code: " P-0042_b " })).code).toBeUndefined();
  });

  it("takes ISO 639-3 codes as languages, at most 10, separated by commas, semicolons or spaces", () => {
    // participants.spec.ts, 'adds a participant in the side panel': 'luganda' refused, 'lug, eng' taken.
    expect(formErrors(form({ languages: "luganda" })).languages).toBe(
      "Languages are ISO 639-3 codes of three lowercase letters.",
    );
    expect(formErrors(form({ languages: "lug, eng" })).languages).toBeUndefined();
    expect(formErrors(form({ languages: "LUG;eng swa" })).languages).toBeUndefined();
    expect(formErrors(form({ languages: "en" })).languages).toBe(
      "Languages are ISO 639-3 codes of three lowercase letters.",
    );
    const eleven = "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk";
    expect(formErrors(form({ languages: eleven })).languages).toBe("At most 10 languages.");
  });

  it("checks a score against its instrument's range, then its day, by its row", () => {
    const row = { ...newScoreRow(), score: "31" };
    expect(row.instrument).toBe("MMSE");
    expect(formErrors(form({ scores: [row] }))[`score-${row.key}`]).toBe("MMSE is scored 0 to 30.");
    const moca = { ...newScoreRow("MoCA"), score: "" };
    expect(formErrors(form({ scores: [moca] }))[`score-${moca.key}`]).toBe("MoCA is scored 0 to 30.");
    const badDay = { ...row, score: "22", takenOn: "2026-02-30" };
    expect(formErrors(form({ scores: [badDay] }))[`score-${row.key}`]).toBe("This date does not exist.");
    expect(formErrors(form({ scores: [{ ...row, score: "22", takenOn: "2026-01-20" }] }))).toEqual({});
  });

  it("refuses days not written YYYY-MM-DD or not on the calendar, in every date field, as the server words it", () => {
    const format = "A date is written YYYY-MM-DD.";
    const missing = "This date does not exist.";
    expect(formErrors(form({ birthDate: "1951-02-29" })).birthDate).toBe(missing);
    expect(formErrors(form({ birthDate: "1952-02-29" })).birthDate).toBeUndefined();
    expect(formErrors(form({ consentDate: "15/01/2026" })).consentDate).toBe(format);
    expect(formErrors(form({ ageMode: "age", ageYears: "70", ageRecordedOn: "2026-13-01" })).ageRecordedOn).toBe(
      missing,
    );
    // A date of birth is not checked while the age is given in years and months.
    expect(formErrors(form({ ageMode: "age", birthDate: "nonsense" })).birthDate).toBeUndefined();
  });

  it("takes an age of 0 to 150 whole years and 0 to 11 months", () => {
    const message = "An age is whole years (0 to 150) and months (0 to 11).";
    expect(formErrors(form({ ageMode: "age", ageYears: "72", ageMonths: "3" })).age).toBeUndefined();
    expect(formErrors(form({ ageMode: "age", ageYears: "", ageMonths: "6" })).age).toBeUndefined();
    expect(formErrors(form({ ageMode: "age", ageYears: "72", ageMonths: "12" })).age).toBe(message);
    expect(formErrors(form({ ageMode: "age", ageYears: "151" })).age).toBe(message);
    expect(formErrors(form({ ageMode: "age", ageYears: "150", ageMonths: "0" })).age).toBeUndefined();
    // The server keeps at most 150 years (1,800 months).
    expect(formErrors(form({ ageMode: "age", ageYears: "150", ageMonths: "1" })).age).toBe(message);
    expect(formErrors(form({ ageMode: "age", ageYears: "72.5" })).age).toBe(message);
  });

  it("takes 0 to 40 years of education, notes up to 5,000 characters", () => {
    expect(formErrors(form({ educationYears: "41" })).educationYears).toBe("Years of education are 0 to 40.");
    expect(formErrors(form({ educationYears: "six" })).educationYears).toBe("Years of education are 0 to 40.");
    expect(formErrors(form({ educationYears: "0" })).educationYears).toBeUndefined();
    expect(formErrors(form({ notes: "x".repeat(5000) })).notes).toBeUndefined();
    expect(formErrors(form({ notes: "x".repeat(5001) })).notes).toBe("Notes are at most 5,000 characters.");
  });
});

describe("the panel's form and what it sends", () => {
  it("starts empty: group to choose, consent not recorded, age as a date of birth", () => {
    expect(emptyForm()).toMatchObject({ group: "", consentStatus: "not_recorded", ageMode: "birthDate", scores: [] });
  });

  it("opens a saved participant with the age as it was given, and sends the same back", () => {
    const opened = formOf(SAVED);
    expect(opened).toMatchObject({
      ageMode: "age",
      ageYears: "72",
      ageMonths: "3",
      ageRecordedOn: "2026-01-15",
      educationYears: "6",
      languages: "lug, eng",
    });
    expect(opened.scores.map(({ instrument, score, takenOn }) => ({ instrument, score, takenOn }))).toEqual([
      { instrument: "MMSE", score: "22", takenOn: "2026-01-20" },
    ]);
    // The fields the server keeps beside what was entered are not sent.
    const {
      id: _id,
      ageMonthsToday: _t,
      consentDocumentName: _d,
      audioCount: _a,
      createdAt: _c,
      updatedAt: _u,
      ...entered
    } = SAVED;
    expect(inputOf(opened)).toEqual(entered);
  });

  it("sends a date of birth and no age when the age is given that way; blanks as null", () => {
    const input = inputOf(form({ code: " P0501 ", birthDate: "1951-06-10", ageYears: "70", ageMonths: "1" }));
    expect(input).toMatchObject({ code: "P0501", birthDate: "1951-06-10", ageMonths: null, ageRecordedOn: null });
    expect(input).toMatchObject({ sex: null, educationYears: null, languages: [], consentDate: null });
    expect(formOf({ ...SAVED, birthDate: "1951-06-10", ageMonths: null }).ageMode).toBe("birthDate");
  });

  it("gives each score row its own key", () => {
    expect(newScoreRow().key).not.toBe(newScoreRow().key);
  });
});

describe("fieldOfMessage (the server's message shown by its field)", () => {
  it("finds the field a message is about", () => {
    expect(fieldOfMessage("A participant with the code P0042 already exists.")).toBe("code");
    expect(fieldOfMessage("Group is required")).toBe("group");
    expect(fieldOfMessage("The category must change with the group's audios first.")).toBe("group");
    expect(fieldOfMessage("Years of education are 0 to 40.")).toBe("educationYears");
    expect(fieldOfMessage("At most 10 languages.")).toBe("languages");
    expect(fieldOfMessage("MMSE is scored 0 to 30.")).toBe("scores");
    expect(fieldOfMessage("Notes are at most 5,000 characters.")).toBe("notes");
    expect(fieldOfMessage("Unknown sex.")).toBe("sex");
    expect(fieldOfMessage("Consent is required")).toBe("consentStatus");
    expect(fieldOfMessage("The date of birth is in the future.")).toBe("age");
  });

  it("answers null for a message about no field", () => {
    expect(fieldOfMessage("Cannot connect to the server. Please try again later.")).toBeNull();
  });
});
