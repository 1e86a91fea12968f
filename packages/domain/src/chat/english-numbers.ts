/**
 * Numbers written out as English words, for CHAT's main tier (decision 024). TalkBank's CHECK
 * refuses digits on an English main tier ("Numbers should be written out in words", CHECK error 38;
 * "Numbers are not allowed inside words", error 47), and a `.`, `:` or `,` inside a number would be
 * read as a terminator or a separator. No npm library for this is installed, so this is our own
 * small one: English cardinals and ordinals, American style (no "and": "three hundred twenty one"),
 * tens without a hyphen ("twenty one": every word a plain CHAT word).
 */

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
] as const;
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"] as const;
const SCALES = ["", "thousand", "million", "billion", "trillion"] as const;

/** Ordinals that are not the cardinal plus `th`. */
const IRREGULAR_ORDINALS: Record<string, string> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth",
};

/** 1 to 999 as words. */
function belowThousand(n: number): string[] {
  const words: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds > 0) words.push(ONES[hundreds] as string, "hundred");
  if (rest >= 20) {
    words.push(TENS[Math.floor(rest / 10)] as string);
    if (rest % 10 > 0) words.push(ONES[rest % 10] as string);
  } else if (rest > 0 || hundreds === 0) {
    words.push(ONES[rest] as string);
  }
  return words;
}

/** Each digit of `digits` as its word: `007` → zero zero seven. */
function digitWords(digits: string): string[] {
  return [...digits].map((digit) => ONES[Number(digit)] as string);
}

/**
 * A run of ASCII digits as English words: `0` → zero, `42` → forty two, `2026` → two thousand
 * twenty six, `1990` → nineteen ninety and `1905` → nineteen oh five (1100–1999 read as people say
 * years and hundreds: `1500` → fifteen hundred). Read digit by digit when it starts with 0 (`007`),
 * or is longer than 15 digits (beyond trillions).
 */
function numberWords(digits: string): string[] {
  if (!/^\d+$/.test(digits)) throw new Error(`Not a run of digits: ${JSON.stringify(digits)}`);
  if ((digits.length > 1 && digits.startsWith("0")) || digits.length > 15) return digitWords(digits);
  const n = Number(digits);
  if (n === 0) return ["zero"];
  if (digits.length === 4 && n >= 1100 && n <= 1999) {
    const century = belowThousand(Math.floor(n / 100));
    const rest = n % 100;
    if (rest === 0) return [...century, "hundred"];
    return [...century, ...(rest < 10 ? ["oh", ONES[rest] as string] : belowThousand(rest))];
  }
  const words: string[] = [];
  let scale = 0;
  let rest = n;
  while (rest > 0) {
    const group = rest % 1000;
    if (group > 0) words.unshift(...belowThousand(group), ...(scale > 0 ? [SCALES[scale] as string] : []));
    rest = Math.floor(rest / 1000);
    scale++;
  }
  return words;
}

/** A run of digits as an ordinal: `1` → first, `21` → twenty first, `40` → fortieth. */
function ordinalWords(digits: string): string[] {
  const words = numberWords(digits);
  const last = words.pop() ?? "";
  const ordinal = IRREGULAR_ORDINALS[last] ?? (last.endsWith("y") ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words, ordinal];
}

/** Minutes or seconds of a clock time: `00` → o'clock (minutes alone) or zero zero, `05` → oh five, `30` → thirty. */
function clockPart(part: string, onlyPart: boolean): string[] {
  if (part === "00") return onlyPart ? ["o'clock"] : digitWords(part);
  if (part.startsWith("0")) return ["oh", ONES[Number(part)] as string];
  return numberWords(part);
}

const spaced = (words: string[]): string => ` ${words.join(" ")} `;

/**
 * Every number in `text` written out as English words, so that no digit is left (CHECK errors 38
 * and 47) and no `.` `:` `,` inside a number reads as a terminator or separator. In this order:
 * `50%` → fifty percent; ordinals `21st` → twenty first; thousands separators `1,000` → one
 * thousand; clock times `10:30` → ten thirty, `08:05` → eight oh five, `10:00` → ten o'clock;
 * decimals `2.5` → two point five (`.5` → point five; `192.168.1.1` → its parts joined by "dot");
 * any other run of digits as numberWords. A number touching letters is written apart from them
 * (`mp3` → mp three, `3cats` → three cats). Digits of other scripts and other numeric characters
 * (fractions, Roman numeral signs) that NFKC normalisation did not make ASCII are dropped.
 */
export function spellOutNumbers(text: string): string {
  return text
    .replace(/(?<=\d)\s?%/g, " percent")
    .replace(/(?<!\d)(\d+)(?:st|nd|rd|th)(?![\p{L}\p{N}])/giu, (_, digits: string) => spaced(ordinalWords(digits)))
    .replace(/(?<![\d.,])\d{1,3}(?:,\d{3})+(?!\d|,\d)/g, (number) => number.replaceAll(",", ""))
    .replace(
      /(?<![\d:.])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])/g,
      (_, hours: string, minutes: string, seconds?: string) =>
        spaced([
          ...numberWords(String(Number(hours))),
          ...clockPart(minutes, seconds === undefined),
          ...(seconds === undefined ? [] : clockPart(seconds, false)),
        ]),
    )
    .replace(/(?<![\d.])\d+(?:\.\d+)+(?![\d])/g, (number) => {
      const [whole = "", ...parts] = number.split(".");
      if (parts.length === 1) return spaced([...numberWords(whole), "point", ...digitWords(parts[0] ?? "")]);
      return spaced([whole, ...parts].flatMap((part, i) => [...(i > 0 ? ["dot"] : []), ...numberWords(part)]));
    })
    .replace(/(?<![\p{L}\p{N}.])\.(\d+)(?!\d)/gu, (_, decimals: string) => spaced(["point", ...digitWords(decimals)]))
    .replace(/\d+/g, (digits) => spaced(numberWords(digits)))
    .replace(/\p{N}/gu, " ");
}
