import { CHAT_MONTHS, CHAT_ROLES, CHAT_TERMINATORS, INVESTIGATOR_ROLE } from "./chat-settings";

/** The headers every CHAT file starts with, in this order. */
type OpeningHeader = "@UTF8" | "@Begin" | "@Languages:" | "@Participants:" | "@ID:" | "@Media:" | "@Date:";

/** Roles of CHAT's depfile this validator accepts: ours, and the commonest others. */
const KNOWN_ROLES = new Set<string>([
  ...CHAT_ROLES,
  INVESTIGATOR_ROLE,
  "Target_Child",
  "Child",
  "Mother",
  "Father",
  "Adult",
  "Observer",
  "Unidentified",
]);

/** How far a speaker's utterance may start before the same speaker's previous one ended (CHECK error 133). */
const SELF_OVERLAP_MS = 500;

/** A word: letters and combining marks, with `'`, `-`, `_` or `+` only between letters. */
const WORD = /^\p{L}[\p{L}\p{M}]*(?:['_+-]\p{L}[\p{L}\p{M}]*)*$/u;
/** An event code: `&=` and letters, in parts joined by `_` or `:`. */
const EVENT = /^&=\p{L}[\p{L}\p{M}]*(?:[_:]\p{L}[\p{L}\p{M}]*)*$/u;
/** A filler (`&-um`) or fragment (`&+fr`). */
const FILLER = /^&[-+]\p{L}[\p{L}\p{M}]*$/u;
/** A media bullet at the end of a main tier, after the terminator and a space. */
const BULLET = /^(.*) \u0015(\d+)_(\d+)\u0015$/su;
/** A retracing code: `[/]` (repetition), `[//]` (retracing), `[///]` (reformulation). */
const RETRACE = /^\[\/{1,3}\]$/;
/** A pause: `(.)`, `(..)`, `(...)`, or timed in seconds, `(1.5)`, `(2.)`, `(1:02.5)`. */
const PAUSE = /^\((?:\.{1,3}|(?:\d+:)?\d+\.\d*)\)$/;
/** A dependent tier: `%`, its name, `:`, then its text. */
const DEPENDENT_TIER = /^%([A-Za-z0-9]+):(.?)(.*)$/s;

/** The problem with one `@ID` field, or null. */
function idFieldProblem(name: string, value: string): string | null {
  switch (name) {
    case "corpus":
      return /^[A-Za-z0-9_-]+$/.test(value)
        ? null
        : `corpus "${value}" is empty or has other characters than letters, digits, _ and -`;
    case "age": {
      if (value === "") return null;
      const age = /^(\d{1,3});(?:(\d{2})\.(\d{2})?)?$/.exec(value);
      if (!age) return `age "${value}" is not Y;MM. (or Y; or Y;MM.DD)`;
      const [, , months, days] = age;
      if (months !== undefined && Number(months) > 11) return `age "${value}" has more than 11 months`;
      if (days !== undefined && (Number(days) < 1 || Number(days) > 31)) return `age "${value}" has no such day`;
      return null;
    }
    case "sex":
      return ["", "female", "male"].includes(value) ? null : `sex "${value}" is not female, male or empty`;
    case "group":
      return /^[A-Za-z0-9_-]*$/.test(value)
        ? null
        : `group "${value}" has other characters than letters, digits, _ and -`;
    case "SES":
      return /^[A-Za-z0-9_,-]*$/.test(value)
        ? null
        : `SES "${value}" has other characters than letters, digits, _, - and ,`;
    case "education":
      return /^(\d{1,2})?$/.test(value) ? null : `education "${value}" is not a number of years`;
    case "custom":
      return /^[A-Za-z0-9_.;,-]*$/.test(value) ? null : `custom field "${value}" has spaces or other characters`;
    default:
      return null;
  }
}

/** The problem with `@Date`'s value (`DD-MMM-YYYY`, an upper-case English month, a real day), or null. */
function dateProblem(value: string): string | null {
  const match = /^(\d{2})-([A-Z]{3})-(\d{4})$/.exec(value);
  const month = match ? (CHAT_MONTHS as readonly string[]).indexOf(match[2] ?? "") : -1;
  if (!match || month < 0) return `@Date "${value}" is not DD-MMM-YYYY with an upper-case English month (05-MAR-2026)`;
  const day = new Date(Date.UTC(Number(match[3]), month, Number(match[1])));
  if (day.getUTCMonth() !== month || day.getUTCDate() !== Number(match[1])) return `@Date "${value}" is not a real day`;
  return null;
}

/** The problem with one word-like token of an utterance (not `,` or the terminator), or null. */
function tokenProblem(token: string): string | null {
  if (/^[.?!]+$/.test(token) || (CHAT_TERMINATORS as readonly string[]).includes(token))
    return "a terminator inside the utterance";
  if (PAUSE.test(token) || RETRACE.test(token)) return null;
  if (token.startsWith("&=")) return EVENT.test(token) ? null : `"${token}" is not &= followed by letters, _ or :`;
  if (token.startsWith("&")) return FILLER.test(token) ? null : `"${token}" is not a CHAT & code`;
  if (/\p{N}/u.test(token))
    return `"${token}" has a digit: CHECK wants numbers written out in words (errors 38 and 47)`;
  if (/[.?!]/.test(token)) return `"${token}" has a terminator character inside a word`;
  if (token.includes(":")) return `"${token}" has a ':' inside a word`;
  if (!/\p{L}/u.test(token)) return `"${token}" is a word without a letter`;
  if (/[[\]<>@#*%$^~=|\\{}"()]/.test(token)) return `"${token}" has a character CHAT reserves`;
  if (!WORD.test(token)) return `"${token}" has characters a CHAT word may not hold`;
  return null;
}

/**
 * What breaks the rules in one main-tier utterance as written after its tier code and tab,
 * without its bullet (`I went [/] I went (.) home .`); empty when nothing does. The rules are
 * chatRuleViolations' for an utterance: items separated by single spaces, no tab, control
 * character, U+0015 or U+2022; one terminator (`.` `?` `!`, or a special one such as `+...`,
 * `+//.`) at the end after a space and no other; `,` never first, doubled or before the
 * terminator; words with a letter, no digit, terminator character, `:` or reserved character;
 * `&=` events, `&-` fillers and `&+` fragments of letters; pauses `(.)`, `(..)`, `(...)` or timed
 * `(1.5)`; retracing codes `[/]`, `[//]`, `[///]` only after a word or code; angle brackets `<…>`
 * around one or more items, not nested, and followed by a retracing code.
 */
export function utteranceProblems(utterance: string): string[] {
  const problems: string[] = [];
  if (utterance.includes("\u0015")) {
    problems.push("a stray U+0015 or a bullet that is not \\u0015<start>_<end>\\u0015 after the terminator");
  }
  if (/[\p{Cc}\u2022\u2028\u2029]/u.test(utterance.replace(/[\t\u0015]/g, ""))) {
    problems.push("a control character or U+2022 in the utterance");
  }
  if (/\s{2,}|\t|^\s|\s$/.test(utterance)) problems.push("repeated, tab or edge whitespace in the utterance");
  const tokens = utterance.split(" ");
  const last = tokens.at(-1) ?? "";
  if (!(CHAT_TERMINATORS as readonly string[]).includes(last) || tokens.length < 2) {
    problems.push("the utterance does not end with a terminator after a space");
  }
  const items = tokens.slice(0, -1);
  let scopeOpen = false;
  let scopeClosed = false;
  for (const [i, item] of items.entries()) {
    if (item === "") continue;
    const closedBefore = scopeClosed;
    scopeClosed = false;
    if (closedBefore && !RETRACE.test(item)) problems.push(`"${item}" follows a <…> scope: a retracing code must`);
    if (item === ",") {
      if (i === 0 || items[i - 1] === "," || i === items.length - 1) {
        problems.push("a ',' first, doubled or before the terminator");
      }
      continue;
    }
    let token = item;
    if (token.startsWith("<")) {
      if (scopeOpen) problems.push(`"${item}" opens a <…> scope inside another`);
      scopeOpen = true;
      token = token.slice(1);
    }
    if (token.endsWith(">") && token.length > 0) {
      if (!scopeOpen) problems.push(`"${item}" closes a <…> scope that was not opened`);
      scopeOpen = false;
      scopeClosed = true;
      token = token.slice(0, -1);
    }
    if (RETRACE.test(token)) {
      const before = items[i - 1];
      if (token !== item) problems.push(`"${item}": a retracing code inside angle brackets`);
      else if (before === undefined || before === "," || RETRACE.test(before)) {
        problems.push(`"${item}" retraces nothing: it must follow a word or code`);
      }
      continue;
    }
    const problem = token === "" || token === "," ? `"${item}" is an empty <…> scope` : tokenProblem(token);
    if (problem) problems.push(problem);
  }
  if (scopeOpen) problems.push("a <…> scope is not closed");
  if (scopeClosed) problems.push("a <…> scope is not followed by a retracing code");
  return problems;
}

/**
 * Checks a CHAT file against the rules of TalkBank's CHAT grammar and its CHECK program that
 * Tafsiri's exports must keep (decisions 024 and 035), and answers what breaks them (empty when none):
 * - the file: UTF-8 text of `\n`-ended lines, no carriage return, no control character but tab,
 *   and U+0015 only in bullets; no U+2022 `•` anywhere (it is not CHAT's bullet);
 * - headers: `@UTF8`, `@Begin`, `@Languages`, `@Participants`, one `@ID` per participant, then
 *   `@Media` and an optional `@Date` (after the `@ID`s), `@End` last; a tab after each header with a
 *   value and each tier code;
 * - `@Participants`: comma-separated `CODE [Name] Role`, codes of three capitals or digits, no code
 *   twice, roles from CHAT's depfile;
 * - `@ID`: 10 `|`-separated fields and a closing `|`; language one of `@Languages`; code and role a
 *   participant's; age empty or `Y;`, `Y;MM.`, `Y;MM.DD`; sex empty, female or male; corpus, group,
 *   SES, education (years) and custom field without spaces or odd characters;
 * - `@Media`: a file name and `audio` or `video`; `@Date`: `DD-MMM-YYYY`, upper-case English month;
 * - every utterance (utteranceProblems): a participant's tier; items separated by single spaces;
 *   ends with one terminator (`.` `?` `!`, or a special one: `+...`, `+..?`, `+!?`, `+/.`, `+/?`,
 *   `+//.`, `+//?`) after a space and holds no other; `,` never first, doubled or before the
 *   terminator; `&=` codes of letters, `_`, `:`; words hold a letter, no digit (CHECK errors 38
 *   and 47), no terminator character, no `:`, no reserved character; CHAT's codes as a CHAT
 *   source writes them: `&-uh`, `&+fr`, `xxx`, pauses `(.)` `(..)` `(...)` `(1.5)`, retracing
 *   `[/]` `[//]` `[///]` after a word or code, `<…>` scopes followed by a retracing code;
 * - dependent tiers (decision 035): only `%eng` and `%x…` tiers (`%xtra`), each after an
 *   utterance (its main tier or another of its dependent tiers), once per utterance, a tab after
 *   the code, then text: not empty, no tab, U+0015 or edge whitespace; `%tra` is refused (retired,
 *   chatter error E605);
 * - bullets: only `\u0015<ms>_<ms>\u0015` after the terminator and a space at the end of the
 *   tier, start before end; a speaker's bullet never starts before that speaker's previous one
 *   started (CHECK error 83), nor more than 500 ms before it ended (CHECK error 133).
 */
export function chatRuleViolations(file: string): string[] {
  const problems: string[] = [];
  if (!file.endsWith("\n")) problems.push("the file does not end with a line break");
  if (file.includes("\r")) problems.push("the file has a carriage return");
  if (file.includes("\u2022")) problems.push("the file has a U+2022 '•': CHAT's media bullets are U+0015");
  if (/[\u0000-\u0008\u000b-\u0014\u0016-\u001f\u007f-\u009f]/.test(file))
    problems.push("the file has a control character");
  const lines = file.replace(/\n$/, "").split("\n");

  let at = 0;
  const header = (name: OpeningHeader): string | null => {
    const line = lines[at];
    if (line === undefined || !line.startsWith(name)) {
      problems.push(`line ${at + 1}: expected ${name}, found ${JSON.stringify(line ?? "")}`);
      return null;
    }
    at++;
    if (!name.endsWith(":")) {
      if (line !== name) problems.push(`line ${at}: ${name} takes no value`);
      return "";
    }
    if (line[name.length] !== "\t") {
      problems.push(`line ${at}: no tab after ${name}`);
      return line.slice(name.length).trim();
    }
    return line.slice(name.length + 1);
  };

  header("@UTF8");
  header("@Begin");
  const languages = (header("@Languages:") ?? "").split(",").map((code) => code.trim());
  if (!languages.every((code) => /^[a-z]{3}$/.test(code))) problems.push("@Languages: not ISO 639-3 codes");

  const participants = new Map<string, string>();
  for (const entry of (header("@Participants:") ?? "").split(",")) {
    const words = entry.trim().split(/\s+/);
    const code = words[0] ?? "";
    const role = words.at(-1) ?? "";
    if (!/^[A-Z0-9]{3}$/.test(code) || words.length < 2 || words.length > 3) {
      problems.push(`@Participants: malformed entry "${entry}"`);
    } else if (!KNOWN_ROLES.has(role)) problems.push(`@Participants: ${code}'s role ${role} is not a CHAT role`);
    if (participants.has(code)) problems.push(`@Participants: ${code} is listed twice`);
    participants.set(code, role);
  }

  const ids = new Set<string>();
  const fieldNames = ["language", "corpus", "code", "age", "sex", "group", "SES", "role", "education", "custom"];
  while (lines[at]?.startsWith("@ID:")) {
    const fields = (header("@ID:") ?? "").split("|");
    if (fields.length !== 11 || fields[10] !== "") {
      problems.push(`line ${at}: @ID has ${fields.length - 1} '|'-separated fields, not 10`);
      continue;
    }
    const [language = "", , code = "", , , , , role = ""] = fields;
    if (!languages.includes(language)) problems.push(`line ${at}: @ID language ${language} is not in @Languages`);
    if (!participants.has(code)) problems.push(`line ${at}: @ID code ${code} is not a participant`);
    else if (participants.get(code) !== role) problems.push(`line ${at}: @ID role ${role} is not ${code}'s`);
    if (ids.has(code)) problems.push(`line ${at}: a second @ID for ${code}`);
    ids.add(code);
    for (const [i, name] of fieldNames.entries()) {
      const problem = idFieldProblem(name, fields[i] ?? "");
      if (problem) problems.push(`line ${at}: @ID ${problem}`);
    }
  }
  if (ids.size === 0) header("@ID:");
  for (const code of participants.keys()) if (!ids.has(code)) problems.push(`participant ${code} has no @ID`);

  let media = false;
  let date = false;
  for (let line = lines[at]; line?.startsWith("@Media:") || line?.startsWith("@Date:"); line = lines[at]) {
    if (line.startsWith("@Media:")) {
      const value = header("@Media:") ?? "";
      if (media) problems.push(`line ${at}: a second @Media`);
      if (!/^[^\s,]+, (audio|video)$/.test(value)) problems.push(`@Media: malformed "${value}"`);
      media = true;
    } else {
      const problem = dateProblem(header("@Date:") ?? "");
      if (date) problems.push(`line ${at}: a second @Date`);
      if (problem) problems.push(`line ${at}: ${problem}`);
      date = true;
    }
  }
  if (!media) header("@Media:");

  if (lines.at(-1) !== "@End") problems.push("the last line is not @End");
  const body = lines.slice(at, lines.length - 1);
  const lastBullet = new Map<string, { startMs: number; endMs: number }>();
  // The dependent tiers of the utterance last written; null before the first utterance.
  let dependents: Set<string> | null = null;
  for (const [index, line] of body.entries()) {
    const number = at + index + 1;
    const dependent = DEPENDENT_TIER.exec(line);
    if (dependent) {
      problems.push(...dependentTierProblems(dependent, dependents).map((problem) => `line ${number}: ${problem}`));
      dependents?.add(dependent[1] ?? "");
      continue;
    }
    const tier = /^\*([A-Z0-9]{3}):(.?)(.*)$/s.exec(line);
    if (!tier) {
      problems.push(`line ${number}: not an utterance tier: ${JSON.stringify(line)}`);
      dependents = null;
      continue;
    }
    dependents = new Set();
    const [, speaker = "", separator, content = ""] = tier;
    if (separator !== "\t") problems.push(`line ${number}: no tab after *${speaker}:`);
    if (!participants.has(speaker)) problems.push(`line ${number}: *${speaker} is not a participant`);

    let utterance = content;
    const bullet = BULLET.exec(content);
    if (bullet) {
      utterance = bullet[1] ?? "";
      const startMs = Number(bullet[2]);
      const endMs = Number(bullet[3]);
      if (startMs >= endMs)
        problems.push(`line ${number}: the bullet's start ${startMs} is not before its end ${endMs}`);
      const previous = lastBullet.get(speaker);
      if (previous && startMs < previous.startMs) {
        problems.push(`line ${number}: *${speaker}'s bullet starts before ${speaker}'s previous one (CHECK error 83)`);
      } else if (previous && startMs < previous.endMs - SELF_OVERLAP_MS) {
        problems.push(
          `line ${number}: *${speaker}'s bullet overlaps ${speaker}'s previous one by more than 500 ms (CHECK error 133)`,
        );
      }
      lastBullet.set(speaker, { startMs, endMs });
    }
    problems.push(...utteranceProblems(utterance).map((problem) => `line ${number}: ${problem}`));
  }
  return problems;
}

/**
 * What breaks the rules in one dependent tier line (`%xtra:\ttext`, matched by DEPENDENT_TIER),
 * given the dependent tiers its utterance already has (null: it follows no utterance).
 */
function dependentTierProblems(tier: RegExpExecArray, before: ReadonlySet<string> | null): string[] {
  const [, name = "", separator, text = ""] = tier;
  const problems: string[] = [];
  if (name === "tra") {
    problems.push("%tra is retired (chatter error E605): a translation goes on %xtra, or %eng for English");
  } else if (name !== "eng" && !/^x[a-z]+$/.test(name)) {
    problems.push(`%${name} is not a tier these files hold (%eng, or a %x tier such as %xtra)`);
  }
  if (before === null) problems.push(`%${name} does not follow an utterance`);
  else if (before.has(name)) problems.push(`a second %${name} for one utterance`);
  if (separator !== "\t") problems.push(`no tab after %${name}:`);
  if (text.trim() === "") problems.push(`%${name} has no text`);
  else if (/\t|^\s|\s$/.test(text)) problems.push(`tab or edge whitespace in %${name}`);
  if (text.includes("\u0015")) problems.push(`a U+0015 in %${name}: its utterance's bullet is on the main tier`);
  return problems;
}
