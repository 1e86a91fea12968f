import { CHAT_TERMINATORS, type ChatTerminator } from "./chat-settings";
import { spellOutNumbers } from "./english-numbers";

/**
 * What people type in a transcript paragraph, turned into CHAT main-tier utterances as the CHAT
 * manual writes them (decision 024, "CHAT that says it"). Pure functions, no I/O.
 */

/** One CHAT utterance: its items (words, `&=` events and `,` separators) and its terminator. */
export interface ChatUtterance {
  /** Never empty; a `,` is never first, last or next to another `,`. */
  items: string[];
  terminator: ChatTerminator;
}

/** An utterance as the main tier writes it: items and terminator separated by one space. */
export function chatUtteranceText(utterance: ChatUtterance): string {
  return [...utterance.items, utterance.terminator].join(" ");
}

/** A bracketed text of more words than this is not an event: its brackets go, its words stay. */
const MAX_EVENT_WORDS = 3;

/** What an event in brackets may say to mean speech nobody could make out: written `xxx`. */
const UNINTELLIGIBLE = new Set(["inaudible", "unintelligible", "unclear", "incomprehensible"]);

/** Abbreviations whose dot is not a sentence end (dots dropped: `Dr.` → `Dr`), matched ignoring case. */
const ABBREVIATIONS = ["Dr", "Mr", "Mrs", "Ms", "Mx", "St", "Prof", "Jr", "Sr", "Mt", "Rev", "vs", "etc", "approx"];
const ABBREVIATION = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(${ABBREVIATIONS.join("|")})\\.`, "giu");
/** Single letters joined by dots (`e.g.`, `i.e.`, `a.m.`, `U.S.A`): the dots dropped (`eg`, `USA`). */
const INITIALISM = /(?<![\p{L}\p{M}\p{N}.])\p{L}(?:\.\p{L})+\.?(?![\p{L}\p{M}\p{N}])/gu;

/**
 * Private-use characters mark an event while the rest of the text is cleaned (the text's own are
 * dropped first): EVENT_START, the event's index written with the ten characters from DIGIT_ZERO,
 * EVENT_END.
 */
const EVENT_START = "\uE000";
const EVENT_END = "\uE001";
const DIGIT_ZERO = 0xe010;
const EVENT_TOKEN = /^\uE000([\uE010-\uE019]+)\uE001$/u;

function eventToken(index: number): string {
  const digits = [...String(index)].map((digit) => String.fromCharCode(DIGIT_ZERO + Number(digit))).join("");
  return ` ${EVENT_START}${digits}${EVENT_END} `;
}

function eventIndex(token: string): number | null {
  const match = EVENT_TOKEN.exec(token);
  if (!match) return null;
  return Number([...(match[1] ?? "")].map((char) => (char.charCodeAt(0) - DIGIT_ZERO).toString()).join(""));
}

/**
 * Characters that look like what CHAT or our tokenizer understands, made plain: NFKC (full-width
 * `？` → `?`, `…` → `...`, ligatures, superscript digits), apostrophe look-alikes → `'`, dashes
 * between words → `,`, hyphen look-alikes → `-`, CJK stops → `.` and `,`. Dropped: double quotes of
 * every kind, U+2022 `•`, control characters (U+0015 included: only the writer makes bullets),
 * invisible format characters, variation selectors and enclosing marks, private-use characters.
 */
function plainCharacters(paragraph: string): string {
  return paragraph
    .replace(/[\u2018\u2019\u201A\u201B\u02BC\u2032\u0060\u00B4]/gu, "'")
    .normalize("NFKC")
    .replace(/[\u2010\u2011\u2212]/gu, "-")
    .replace(/[\u2012-\u2015\u2E3A\u2E3B]/gu, " , ")
    .replace(/[\u3002\uFF61]/gu, ".")
    .replace(/[\u3001\uFF64]/gu, ",")
    .replace(/\u203D/gu, "?")
    .replace(/[\p{Cf}\p{Me}\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu, "")
    .replace(/[\p{Cc}\p{Co}\p{Z}"\u201C-\u201F\u00AB\u00BB\u2039\u203A\u2022\u00BF\u00A1]/gu, " ");
}

/** The words of an event's text, for its `&=` code: letters and marks only, lower case. */
function eventWords(text: string): string[] {
  return (
    spellOutNumbers(text.replaceAll("'", ""))
      .toLowerCase()
      .match(/\p{L}[\p{L}\p{M}]*/gu) ?? []
  );
}

/** An `&=` event code's text as CHAT writes it: letters and marks, in parts joined by `_` or `:`. */
const EVENT_CODE = /^\p{L}[\p{L}\p{M}]*(?:[_:]\p{L}[\p{L}\p{M}]*)*$/u;

/** The tokens standing for the start and the end of an angle-bracket scope (`<I went> [/]`). */
const SCOPE_OPEN = "<";
const SCOPE_CLOSE = ">";

/** CHAT's special terminators (`+...`, `+//.`), which end an utterance as `.` `?` `!` do. */
const SPECIAL_TERMINATORS: ReadonlySet<string> = new Set(CHAT_TERMINATORS.filter((t) => t.startsWith("+")));

/**
 * CHAT codes the text already holds, as a CHAT source writes them (decision 035; the codes the
 * translation checks know), become tokens kept as written (stored in `codes`): fillers `&-uh` and
 * fragments `&+fr`; retracing `[/]`, `[//]`, `[///]`; pauses `(.)`, `(..)`, `(...)` and timed
 * `(1.5)`, `(1:02.5)`; special terminators `+...`, `+..?`, `+!?`, `+/.`, `+/?`, `+//.`, `+//?`
 * (ending the utterance); the angle brackets of a scope followed by a retracing code
 * (`<I went> [/]`). Other CHAT codes in square brackets (`[: target]`, `[*]`, `[+ gram]`,
 * `[= explanation]`, `[!]`, `[?]`, `[>]`, `[x 3]`, `[- eng]`) are not speech: dropped.
 */
function markCodes(text: string, codes: string[]): string {
  const code = (written: string): string => {
    codes.push(written);
    return eventToken(codes.length - 1);
  };
  return text
    .replace(/\[(?:[:*+=%!?<>^$]|x\s*\d|-\s)[^[\]]*\]/gu, " ")
    .replace(
      /<([^<>[\]]*)>(?=\s*\[\/{1,3}\])/gu,
      (_, inside: string) => `${code(SCOPE_OPEN)}${inside}${code(SCOPE_CLOSE)}`,
    )
    .replace(/\[\/{1,3}\]/gu, code)
    .replace(/\((?:\.{1,3}|(?:\d+:)?\d+\.\d*)\)/gu, code)
    .replace(/(?<![\p{L}\p{M}\p{N}&])&[-+]\p{L}[\p{L}\p{M}]*(?![\p{L}\p{M}\p{N}'_:+&-])/gu, code)
    .replace(/(?<!\S)\+(?:\.\.\.|\.\.\?|!\?|\/\/?[.?])(?!\S)/gu, code);
}

/**
 * Events in round or square brackets (innermost first) and typed `&=` codes become event tokens
 * (stored in `events`): `(laughs)` → `&=laughs`, `(long pause)` → `&=long_pause`, `[coughs]` →
 * `&=coughs`; `(inaudible)`, `(unclear)`… → `xxx`, CHAT's unintelligible word. An `&=` code CHAT
 * accepts (`&=laughs:softly`) is kept as written. Brackets glued to a word around one to three
 * letters (`word(s)`, `(be)cause`) just go (`words`, `because`); a bracket of more than
 * MAX_EVENT_WORDS words keeps its words as speech; one with no letter is dropped.
 */
function markEvents(text: string, events: string[]): string {
  const event = (words: string[]): string => {
    if (words.length === 1 && UNINTELLIGIBLE.has(words[0] ?? "")) return " xxx ";
    events.push(`&=${words.join("_")}`);
    return eventToken(events.length - 1);
  };
  let marked = text.replace(/&=([\p{L}\p{M}_:]+)/gu, (_, code: string) => {
    if (EVENT_CODE.test(code)) {
      events.push(`&=${code}`);
      return eventToken(events.length - 1);
    }
    const words = eventWords(code.replace(/[_:]+/g, " "));
    return words.length > 0 ? event(words) : " ";
  });
  const bracketed = /(\p{L}?)[([]([^()[\]]*)[)\]](\p{L}?)/gu;
  for (let before = ""; before !== marked;) {
    before = marked;
    marked = marked.replace(bracketed, (_, left: string, inside: string, right: string) => {
      if ((left || right) && /^\p{L}{1,3}$/u.test(inside)) return `${left}${inside}${right}`;
      const words = eventWords(inside);
      if (words.length === 0) return `${left} ${right}`;
      if (words.length > MAX_EVENT_WORDS) return `${left} ${inside} ${right}`;
      return `${left}${event(words)}${right}`;
    });
  }
  return marked;
}

/** A run of terminator characters as one terminator: `?` if it holds one, else `!` if it holds one, else `.`. */
function terminatorOf(run: string): ChatTerminator {
  if (run.includes("?")) return "?";
  if (run.includes("!")) return "!";
  return ".";
}

/** A word token cleaned for CHAT: marks not on a letter dropped, `'` and `-` trimmed from its ends; null when no letter is left. */
function chatWord(token: string): string | null {
  const word = token.replace(/(?<![\p{L}\p{M}])\p{M}+/gu, "").replace(/^[-']+|[-']+$/g, "");
  return /\p{L}/u.test(word) ? word : null;
}

/**
 * A paragraph's text (no time or speaker prefix) as CHAT utterances, one per sentence, each with
 * its own terminator: a `?` or `!` inside the paragraph ends a question or exclamation; the last
 * sentence without one ends with `.`. On the way, as the CHAT manual writes speech:
 * - CHAT codes already in the text are kept as written (markCodes: `&-uh`, `&+fr`, `[/]`, `(.)`,
 *   `(1.5)`, `<I went> [/]`, `+...` ending the utterance); a retracing code with nothing before it
 *   in its utterance, and other CHAT codes in square brackets, are dropped;
 * - events in brackets become `&=` codes (markEvents);
 * - `&` becomes `and`;
 * - abbreviations lose their dots and do not end a sentence (`Dr.` → `Dr`, `e.g.` → `eg`);
 * - numbers are written out in English words (spellOutNumbers: `2.5` → two point five,
 *   `10:30` → ten thirty, `1,000` → one thousand), since CHECK refuses digits;
 * - a dot between a letter and a lower-case letter is read `dot` (`gmail.com`); else a dot, `?`
 *   or `!` (or a run of them, `...`, `?!`) ends the sentence;
 * - `,` `;` `:`, dashes and ` - ` between words become CHAT's `,` separator, written apart;
 * - CHAT's reserved characters (`[ ] < > @ # + * % $ ^ ~ = _ | \ { } "` and brackets left over),
 *   symbols, emoji and every other character that is neither a letter, a combining mark, nor an
 *   apostrophe or hyphen inside a word are dropped (plainCharacters for quotes and controls).
 * A paragraph without a word or event yields no utterance.
 */
export function chatUtterances(paragraph: string): ChatUtterance[] {
  const events: string[] = [];
  const text = spellOutNumbers(
    markEvents(markCodes(plainCharacters(paragraph), events), events)
      .replace(/&/g, " and ")
      .replace(ABBREVIATION, "$1")
      .replace(INITIALISM, (initials) => initials.replaceAll(".", "")),
  )
    .replace(/(?<=\p{L}\p{M}*)\.(?=\p{Ll})/gu, " dot ")
    .replace(/[.?!]+/g, (run) => ` ${run} `)
    .replace(/[,;:]+|-{2,}|(?<=\s)-+(?=\s)|[-']{2,}/g, (run) =>
      /[,;:-]/.test(run) && !run.includes("'") ? " , " : " ",
    )
    .replace(/[^\p{L}\p{M}'\-.?!,\s\uE000\uE001\uE010-\uE019]/gu, " ");

  const utterances: ChatUtterance[] = [];
  let items: string[] = [];
  // Where the items of an open `<…>` scope start; null when none is open.
  let scope: number | null = null;
  const end = (terminator: ChatTerminator) => {
    while (items.at(-1) === ",") items.pop();
    if (items.length > 0) utterances.push({ items, terminator });
    items = [];
    scope = null;
  };
  const closeScope = () => {
    if (scope === null) return;
    while (items.length > scope && items.at(-1) === ",") items.pop();
    if (items.length > scope) {
      items[scope] = `<${items[scope]}`;
      items[items.length - 1] = `${items.at(-1)}>`;
    }
    scope = null;
  };
  for (const token of text.split(/\s+/)) {
    if (token === "") continue;
    if (/^[.?!]+$/.test(token)) {
      end(terminatorOf(token));
      continue;
    }
    if (token === ",") {
      if (items.length > 0 && items.length !== scope && items.at(-1) !== ",") items.push(",");
      continue;
    }
    const index = eventIndex(token);
    if (index !== null) {
      const code = events[index];
      if (code === SCOPE_OPEN) scope = items.length;
      else if (code === SCOPE_CLOSE) closeScope();
      else if (code && SPECIAL_TERMINATORS.has(code)) end(code as ChatTerminator);
      else if (code && /^\[\/+\]$/.test(code)) {
        // A retracing code retraces what comes before it in its utterance.
        const last = items.at(-1);
        if (last !== undefined && last !== "," && !/^\[\/+\]$/.test(last)) items.push(code);
      } else if (code) items.push(code);
      continue;
    }
    const word = chatWord(token);
    if (word) items.push(word);
  }
  end(".");
  return utterances;
}
