import { CHAT_TERMINATORS } from "../export/chat-file";

/** The headers every CHAT file starts with, in this order (issue 12 Build 2). */
type OpeningHeader = "@UTF8" | "@Begin" | "@Languages:" | "@Participants:" | "@ID:" | "@Media:";

/**
 * Checks a CHAT file against the rules TalkBank's CHECK applies that issue 12 names, and answers
 * what breaks them (empty when none): the file is UTF-8 text of `\n`-ended lines; `@UTF8`,
 * `@Begin`, `@Languages`, `@Participants`, one `@ID` per participant, `@Media` come first and in
 * that order, `@End` last; each header with a value and each tier code (`*PAR:`) is followed by a
 * tab; `@ID` has 10 `|`-separated fields (and a closing `|`) whose language is one of
 * `@Languages` and whose code and role are a participant's; `@Media` names a file and says
 * `audio` or `video`; every utterance's speaker is a participant, and the utterance ends with one
 * terminator (`.`, `?` or `!`) after a space and holds no other.
 */
export function chatRuleViolations(file: string): string[] {
  const problems: string[] = [];
  if (!file.endsWith("\n")) problems.push("the file does not end with a line break");
  if (file.includes("\r")) problems.push("the file has a carriage return");
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
    if (!/^[A-Z0-9]{3}$/.test(code) || words.length < 2) problems.push(`@Participants: malformed entry "${entry}"`);
    participants.set(code, words.at(-1) ?? "");
  }
  const ids = new Set<string>();
  while (lines[at]?.startsWith("@ID:")) {
    const fields = (header("@ID:") ?? "").split("|");
    if (fields.length !== 11 || fields[10] !== "") {
      problems.push(`line ${at}: @ID has ${fields.length - 1} '|'-separated fields, not 10`);
      continue;
    }
    const [language, , code, , , , , role] = fields;
    if (!languages.includes(language ?? "")) problems.push(`line ${at}: @ID language ${language} is not in @Languages`);
    if (!participants.has(code ?? "")) problems.push(`line ${at}: @ID code ${code} is not a participant`);
    else if (participants.get(code ?? "") !== role) problems.push(`line ${at}: @ID role ${role} is not ${code}'s`);
    ids.add(code ?? "");
  }
  if (ids.size === 0) header("@ID:");
  for (const code of participants.keys()) if (!ids.has(code)) problems.push(`participant ${code} has no @ID`);
  const media = header("@Media:");
  if (media !== null && !/^[^\s,]+, (audio|video)$/.test(media)) problems.push(`@Media: malformed "${media}"`);

  if (lines.at(-1) !== "@End") problems.push("the last line is not @End");
  const body = lines.slice(at, lines.length - 1);
  for (const [index, line] of body.entries()) {
    const number = at + index + 1;
    const tier = /^\*([A-Z0-9]{3}):(.?)(.*)$/.exec(line);
    if (!tier) {
      problems.push(`line ${number}: not an utterance tier: ${JSON.stringify(line)}`);
      continue;
    }
    const [, speaker, separator, utterance = ""] = tier;
    if (separator !== "\t") problems.push(`line ${number}: no tab after *${speaker}:`);
    if (!participants.has(speaker ?? "")) problems.push(`line ${number}: *${speaker} is not a participant`);
    const tokens = utterance.split(" ");
    const last = tokens.at(-1) ?? "";
    if (!(CHAT_TERMINATORS as readonly string[]).includes(last) || tokens.length < 2) {
      problems.push(`line ${number}: the utterance does not end with a terminator after a space`);
    }
    if (tokens.slice(0, -1).some((token) => /^[.?!]+$/.test(token) || /[.?!]$/.test(token))) {
      problems.push(`line ${number}: a terminator inside the utterance`);
    }
    if (/\s{2,}|\t/.test(utterance)) problems.push(`line ${number}: repeated or tab whitespace in the utterance`);
  }
  return problems;
}
