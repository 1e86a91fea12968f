import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appRouter } from "@tafsiri/api";

/**
 * docs/spec-map.md is where a reader finds the code of a SPEC section or decision: it names every
 * procedure of the app router, and stays readable in a terminal and a diff (no line over 120
 * characters, Prettier's print width).
 */
const SPEC_MAP = readFileSync(new URL("../../../docs/spec-map.md", import.meta.url), "utf8");

describe("docs/spec-map.md", () => {
  it("names every tRPC procedure", () => {
    const procedures = Object.keys(appRouter._def.procedures);
    expect(procedures.length).toBeGreaterThan(60);
    expect(procedures.filter((name) => !SPEC_MAP.includes(`\`${name}\``))).toEqual([]);
  });

  it("has no line over 120 characters", () => {
    expect(SPEC_MAP.split("\n").filter((line) => line.length > 120)).toEqual([]);
  });
});
