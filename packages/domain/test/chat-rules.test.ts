import { describe, expect, it } from "vitest";
import { chatRuleViolations } from "../src";

// Decision 024: the project's CHAT validator. Each broken copy of a valid file must be caught,
// so a file that passes means something.

const valid = [
  "@UTF8",
  "@Begin",
  "@Languages:\teng",
  "@Participants:\tPAR Participant, INV Investigator",
  "@ID:\teng|tafsiri|PAR|72;03.|female|Dementia||Participant|12|24|",
  "@ID:\teng|tafsiri|INV|||||Investigator|||",
  "@Media:\tdementia_0042, audio",
  "@Date:\t05-MAR-2026",
  "*INV:\tWhat do you see ? \u00151000_4500\u0015",
  "*PAR:\tThe boy &=laughs takes biskuti , then falls . \u00154500_7000\u0015",
  "*PAR:\tMaji yanamwagika ! \u00157000_9250\u0015",
  "*PAR:\tNo time here .",
  "@End",
  "",
].join("\n");

describe("chatRuleViolations", () => {
  it("accepts a file with two speakers, @Date, events and bullets", () => {
    expect(chatRuleViolations(valid)).toEqual([]);
  });

  it("accepts ages written Y; and Y;MM.DD, a name in @Participants and @Date before @Media", () => {
    const file = valid
      .replace("|72;03.|", "|57;|")
      .replace("|INV||", "|INV|40;11.02|")
      .replace("PAR Participant,", "PAR Mary Participant,")
      .replace(/(@Media:[^\n]*\n)(@Date:[^\n]*\n)/, "$2$1");
    expect(chatRuleViolations(file)).toEqual([]);
  });

  const broken: Array<[string, (file: string) => string, RegExp]> = [
    ["no @UTF8", (f) => f.replace("@UTF8\n", ""), /expected @UTF8/],
    ["no @Begin", (f) => f.replace("@Begin\n", ""), /expected @Begin/],
    [
      "headers out of order",
      (f) => f.replace(/(@Languages:[^\n]*\n)(@Participants:[^\n]*\n)/, "$2$1"),
      /expected @Languages/,
    ],
    ["a space for the tab of a header", (f) => f.replace("@Media:\t", "@Media: "), /no tab after @Media/],
    ["a space for the tab of a tier", (f) => f.replace("*PAR:\tMaji", "*PAR: Maji"), /no tab after \*PAR/],
    ["@ID with nine fields", (f) => f.replace("|Dementia||", "|Dementia|"), /9 '\|'-separated fields/],
    [
      "@ID with another language",
      (f) => f.replace("@ID:\teng|tafsiri|PAR", "@ID:\tswa|tafsiri|PAR"),
      /not in @Languages/,
    ],
    ["no @ID", (f) => f.replace(/@ID:[^\n]*\n/g, ""), /expected @ID/],
    ["a participant without @ID", (f) => f.replace(/@ID:[^\n]*INV[^\n]*\n/, ""), /participant INV has no @ID/],
    [
      "an @ID role that is not the participant's",
      (f) => f.replace("||Investigator|||", "||Participant|||"),
      /role Participant is not INV's/,
    ],
    ["a speaker listed twice", (f) => f.replace("INV Investigator", "PAR Investigator"), /PAR is listed twice/],
    [
      "a role CHAT does not know",
      (f) => f.replace("INV Investigator", "INV Boss").replace("||Investigator|||", "||Boss|||"),
      /role Boss is not a CHAT role/,
    ],
    ["an age without its semicolon", (f) => f.replace("|72;03.|", "|72|"), /age "72" is not Y;MM\./],
    ["an age with one-digit months", (f) => f.replace("|72;03.|", "|72;3.|"), /age "72;3\." is not Y;MM\./],
    ["an age of 13 months", (f) => f.replace("|72;03.|", "|72;13.|"), /more than 11 months/],
    ["a sex CHAT does not write", (f) => f.replace("|female|", "|F|"), /sex "F" is not female, male or empty/],
    ["a group with a space", (f) => f.replace("|Dementia|", "|Probable AD|"), /group "Probable AD"/],
    ["education in words", (f) => f.replace("|12|24|", "|twelve|24|"), /education "twelve"/],
    ["a custom field with a space", (f) => f.replace("|12|24|", "|12|24 points|"), /custom field "24 points"/],
    ["an empty corpus", (f) => f.replace("eng|tafsiri|PAR", "eng||PAR"), /corpus "" is empty/],
    [
      "@Date with a lower-case month",
      (f) => f.replace("05-MAR-2026", "05-Mar-2026"),
      /@Date "05-Mar-2026" is not DD-MMM-YYYY/,
    ],
    ["@Date as ISO", (f) => f.replace("05-MAR-2026", "2026-03-05"), /@Date "2026-03-05" is not DD-MMM-YYYY/],
    ["@Date on a day that does not exist", (f) => f.replace("05-MAR-2026", "30-FEB-2026"), /not a real day/],
    [
      "@Date before the @IDs",
      (f) => f.replace("@Date:\t05-MAR-2026\n", "").replace("@Participants:", "@Date:\t05-MAR-2026\n@Participants:"),
      /expected @Participants/,
    ],
    [
      "a second @Date",
      (f) => f.replace("@Date:\t05-MAR-2026\n", "@Date:\t05-MAR-2026\n@Date:\t06-MAR-2026\n"),
      /a second @Date/,
    ],
    ["no @Media", (f) => f.replace(/@Media:[^\n]*\n/, ""), /expected @Media/],
    ["no terminator", (f) => f.replace("No time here .", "No time here"), /does not end with a terminator/],
    [
      "a terminator without a space",
      (f) => f.replace("No time here .", "No time here."),
      /does not end with a terminator/,
    ],
    ["two terminators", (f) => f.replace("biskuti ,", "biskuti ."), /a terminator inside the utterance/],
    ["an unknown speaker", (f) => f.replace("*PAR:\tMaji", "*MOT:\tMaji"), /MOT is not a participant/],
    ["no @End", (f) => f.replace("@End\n", ""), /last line is not @End/],
    ["a stray line", (f) => f.replace("@End", "some text\n@End"), /not an utterance tier/],
    ["CRLF line ends", (f) => f.replaceAll("\n", "\r\n"), /carriage return/],
    ["no final line break", (f) => f.replace(/\n$/, ""), /does not end with a line break/],
    ["a U+2022 bullet", (f) => f.replace("\u00154500_7000\u0015", "\u20224500_7000\u2022"), /U\+2022/],
    ["a reversed bullet", (f) => f.replace("4500_7000", "7000_4500"), /start 7000 is not before its end 4500/],
    ["an empty bullet", (f) => f.replace("4500_7000", "4500_4500"), /start 4500 is not before its end 4500/],
    [
      "a speaker's bullets out of order",
      (f) => f.replace("\u00157000_9250\u0015", "\u00153000_4000\u0015"),
      /bullet starts before PAR's previous one \(CHECK error 83\)/,
    ],
    [
      "a speaker overlapping themselves",
      (f) => f.replace("\u00157000_9250\u0015", "\u00155000_9250\u0015"),
      /overlaps PAR's previous one by more than 500 ms \(CHECK error 133\)/,
    ],
    [
      "a bullet before the terminator",
      (f) => f.replace("falls . \u00154500_7000\u0015", "falls \u00154500_7000\u0015 ."),
      /stray U\+0015/,
    ],
    [
      "a bullet without its space",
      (f) => f.replace("falls . \u00154500", "falls .\u00154500"),
      /stray U\+0015|does not end with a terminator/,
    ],
    ["a bullet with a dash", (f) => f.replace("4500_7000", "4500-7000"), /stray U\+0015/],
    ["a stray U+0015", (f) => f.replace("No time here .", "No \u0015time here ."), /stray U\+0015/],
    ["another control character", (f) => f.replace("No time here .", "No time\u0007 here ."), /control character/],
    [
      "a digit-dot number in a word",
      (f) => f.replace("No time here .", "about 2.5 kilometres ."),
      /"2\.5" has a digit/,
    ],
    [
      "digits on the main tier",
      (f) => f.replace("No time here .", "I have 3 cats ."),
      /"3" has a digit: CHECK wants numbers written out/,
    ],
    [
      "an abbreviation's dot",
      (f) => f.replace("No time here .", "Dr. Okello came ."),
      /"Dr\." has a terminator character inside a word/,
    ],
    ["a ':' in a word", (f) => f.replace("No time here .", "at ten:thirty ."), /"ten:thirty" has a ':'/],
    [
      "a word that is only punctuation",
      (f) => f.replace("No time here .", "No -- time ."),
      /"--" is a word without a letter/,
    ],
    [
      "a reserved character",
      (f) => f.replace("No time here .", "No (time) here ."),
      /"\(time\)" has a character CHAT reserves/,
    ],
    [
      "an emoji in a word",
      (f) => f.replace("No time here .", "No time👍 here ."),
      /"time👍" has characters a CHAT word may not hold/,
    ],
    ["a malformed event", (f) => f.replace("&=laughs", "&=laughs!"), /"&=laughs!" is not &= followed by letters/],
    ["an event with a digit", (f) => f.replace("&=laughs", "&=2"), /"&=2" is not &= followed by letters/],
    ["a bare &", (f) => f.replace("&=laughs", "&"), /"&" is not a CHAT & code/],
    [
      "a comma first",
      (f) => f.replace("No time here .", ", No time here ."),
      /a ',' first, doubled or before the terminator/,
    ],
    ["a doubled comma", (f) => f.replace("biskuti ,", "biskuti , ,"), /a ',' first, doubled or before the terminator/],
    [
      "a comma before the terminator",
      (f) => f.replace("No time here .", "No time here , ."),
      /a ',' first, doubled or before the terminator/,
    ],
    ["double spaces", (f) => f.replace("No time here .", "No  time here ."), /repeated, tab or edge whitespace/],
  ];
  for (const [name, breakIt, expected] of broken) {
    it(`catches ${name}`, () => {
      const file = breakIt(valid);
      expect(file).not.toBe(valid);
      expect(chatRuleViolations(file).join("\n")).toMatch(expected);
    });
  }
});

// Decision 035: the source on the main tier, with CHAT's codes as a CHAT source writes them, and
// its translation on a dependent tier.
const translated = [
  "@UTF8",
  "@Begin",
  "@Languages:\tlug",
  "@Participants:\tPAR Participant, INV Investigator",
  "@ID:\tlug|tafsiri|PAR|72;03.|female|Dementia||Participant|12|24|",
  "@ID:\tlug|tafsiri|INV|||||Investigator|||",
  "@Media:\tdementia_0042, audio",
  "*INV:\tKiki ky'olaba ? \u00150_2000\u0015",
  "%xtra:\tUnaona nini?",
  "*PAR:\t&-uh omulenzi [/] omulenzi (.) agwa &=laughs . \u00152000_6000\u0015",
  "%xtra:\t&-uh mvulana [/] mvulana (.) anaanguka &=anacheka.",
  "%eng:\tThe boy [/] the boy (.) falls.",
  "*PAR:\t<ali ku> [//] xxx &+nt (1.5) ntebe +... \u00156000_9000\u0015",
  "*PAR:\twww .",
  "%xtra:\tSikusikia.",
  "@End",
  "",
].join("\n");

describe("chatRuleViolations on translated files (decision 035)", () => {
  it("accepts %xtra and %eng tiers after utterances, and CHAT's codes on the main tier", () => {
    expect(chatRuleViolations(translated)).toEqual([]);
  });

  it("accepts each special terminator and timed pause CHAT writes", () => {
    for (const terminator of ["+...", "+..?", "+!?", "+/.", "+/?", "+//.", "+//?"]) {
      expect(chatRuleViolations(translated.replace("ntebe +...", `ntebe ${terminator}`))).toEqual([]);
    }
    for (const pause of ["(..)", "(...)", "(2.)", "(1:02.5)"]) {
      expect(chatRuleViolations(translated.replace("(1.5)", pause))).toEqual([]);
    }
  });

  const brokenTranslated: Array<[string, (file: string) => string, RegExp]> = [
    [
      "the retired %tra tier",
      (f) => f.replace("%xtra:\tUnaona", "%tra:\tUnaona"),
      /%tra is retired \(chatter error E605\)/,
    ],
    [
      "a dependent tier these files do not hold",
      (f) => f.replace("%eng:", "%mor:"),
      /%mor is not a tier these files hold/,
    ],
    [
      "a dependent tier before any utterance",
      (f) => f.replace("*INV:\tKiki", "%xtra:\tHabari\n*INV:\tKiki"),
      /%xtra does not follow an utterance/,
    ],
    ["an empty dependent tier", (f) => f.replace("%xtra:\tSikusikia.", "%xtra:\t "), /%xtra has no text/],
    ["a dependent tier without text or tab", (f) => f.replace("%xtra:\tSikusikia.", "%xtra:"), /no tab after %xtra:/],
    [
      "a second %xtra for one utterance",
      (f) => f.replace("%xtra:\tUnaona nini?", "%xtra:\tUnaona nini?\n%xtra:\tTena"),
      /a second %xtra for one utterance/,
    ],
    ["a space for the tab of a dependent tier", (f) => f.replace("%eng:\t", "%eng: "), /no tab after %eng:/],
    [
      "edge whitespace on a dependent tier",
      (f) => f.replace("%xtra:\tSikusikia.", "%xtra:\tSikusikia. "),
      /edge whitespace in %xtra/,
    ],
    [
      "a bullet on a dependent tier",
      (f) => f.replace("%xtra:\tSikusikia.", "%xtra:\tSikusikia. \u00159000_9500\u0015"),
      /a U\+0015 in %xtra/,
    ],
    ["a retracing code first", (f) => f.replace("*PAR:\twww .", "*PAR:\t[/] www ."), /"\[\/\]" retraces nothing/],
    ["a retracing code after a comma", (f) => f.replace("omulenzi [/]", "omulenzi , [/]"), /retraces nothing/],
    ["a scope never closed", (f) => f.replace("<ali ku>", "<ali ku"), /not followed by a retracing code|not closed/],
    ["a scope without its retracing code", (f) => f.replace("<ali ku> [//]", "<ali ku>"), /"xxx" follows a <…> scope/],
    ["a scope closed twice", (f) => f.replace("<ali ku>", "<ali> ku>"), /closes a <…> scope that was not opened/],
    ["nested scopes", (f) => f.replace("<ali ku>", "<ali <ku>"), /opens a <…> scope inside another/],
    ["an empty scope", (f) => f.replace("<ali ku>", "<>"), /empty <…> scope/],
    ["a special terminator inside", (f) => f.replace("xxx &+nt", "xxx +... &+nt"), /a terminator inside the utterance/],
    ["an untimed pause with a letter", (f) => f.replace("(1.5)", "(1.5s)"), /"\(1\.5s\)" has a digit/],
    ["a filler with a digit", (f) => f.replace("&+nt", "&+n2"), /"&\+n2" is not a CHAT & code/],
  ];
  for (const [name, breakIt, expected] of brokenTranslated) {
    it(`catches ${name}`, () => {
      const file = breakIt(translated);
      expect(file).not.toBe(translated);
      expect(chatRuleViolations(file).join("\n")).toMatch(expected);
    });
  }
});
