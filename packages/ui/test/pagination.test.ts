import { describe, expect, it } from "vitest";
import { pageWindow } from "../src/pagination";

describe("pageWindow (SPEC §9: the page-number strip shows up to 100 numbers)", () => {
  it("shows every page when there are few", () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
  });

  it("shows at most 100 numbers, centred on the current page", () => {
    const numbers = pageWindow(150, 400);
    expect(numbers).toHaveLength(100);
    expect(numbers[0]).toBe(100);
    expect(numbers.at(-1)).toBe(199);
  });

  it("keeps the window inside 1..totalPages at both ends", () => {
    expect(pageWindow(2, 250)[0]).toBe(1);
    const end = pageWindow(249, 250);
    expect(end[0]).toBe(151);
    expect(end.at(-1)).toBe(250);
  });
});
