import { withoutChatMarkers } from "./chat-markers";
import { listWithAnd } from "./wording";

/**
 * The numbers check of the translation checks (decision 035): the numbers written with digits in
 * the source and in the translation must be the same, in any order. `1,000`, `1 000` and `1000` are
 * one number (a group of exactly three digits after `,` or a space is a thousands group); `1.5` and
 * `1,5` are one decimal. Numbers spelled out in words are not compared, and CHAT's timed pauses
 * (`(1.5)`) are not numbers of the text.
 */

/** A number written with digits: its whole part (maybe grouped in thousands) and its decimals. */
const NUMBER = /(?<!\d)(\d{1,3}(?:[, \u00a0\u202f]\d{3})+(?!\d)|\d+)(?:[.,](\d+))?/gu;

/** One number of a text: as written, and as compared. */
interface WrittenNumber {
  written: string;
  value: string;
}

/** The numbers of a text, in order. */
function numbersIn(text: string): WrittenNumber[] {
  return [...withoutChatMarkers(text).matchAll(NUMBER)].map(([written, whole = "", decimals]) => {
    const digits = whole.replace(/\D/gu, "");
    return { written, value: String(Number(decimals === undefined ? digits : `${digits}.${decimals}`)) };
  });
}

/** The compared values of numbers, sorted, as one string. */
function multiset(numbers: readonly WrittenNumber[]): string {
  return numbers
    .map((n) => n.value)
    .sort()
    .join(" ");
}

/**
 * What the numbers check says of a segment (decision 035): takes its source and translation,
 * returns 'Numbers differ: the source has 12 and 1990, the translation 12.' or null when both have
 * the same numbers.
 */
export function differentNumbers(source: string, target: string): string | null {
  const inSource = numbersIn(source);
  const inTarget = numbersIn(target);
  if (multiset(inSource) === multiset(inTarget)) return null;
  const written = (numbers: readonly WrittenNumber[]) => listWithAnd(numbers.map((n) => n.written));
  return `Numbers differ: the source has ${written(inSource)}, the translation ${written(inTarget)}.`;
}
