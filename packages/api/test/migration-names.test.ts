import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrations } from "../../../migrations/index";

// migrations/README.md "Names": Kysely runs the migrations in the order of their names and refuses
// to start when a database has run a migration that sorts after one it has not (unordered
// migrations stay off). So every file is listed, every name has the form, and the list is in name
// order, each name later than the one before: a new file named earlier than the newest would make
// every database that has the newest refuse to start.

const DIR = path.resolve(import.meta.dirname, "../../../migrations");
const NAME = /^(\d{14})_[a-z0-9]+(_[a-z0-9]+)*$/;

describe("migration names", () => {
  const listed = Object.keys(migrations);

  it("list every migration file in migrations/index.ts, and nothing else", () => {
    const files = readdirSync(DIR)
      .filter((file) => file.endsWith(".ts") && file !== "index.ts")
      .map((file) => file.replace(/\.ts$/, ""));
    expect([...listed].sort()).toEqual([...files].sort());
  });

  it("are a UTC time and a snake_case description, each later than the one before, the newest last", () => {
    for (const name of listed) {
      expect(name, name).toMatch(NAME);
      const stamp = name.slice(0, 14);
      const date = new Date(
        `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(8, 10)}:${stamp.slice(10, 12)}:${stamp.slice(12, 14)}Z`,
      );
      expect(Number.isNaN(date.getTime()), `${name} names no real time`).toBe(false);
    }
    for (let i = 1; i < listed.length; i++) {
      expect(listed[i]! > listed[i - 1]!, `${listed[i]} must sort after ${listed[i - 1]}`).toBe(true);
    }
  });
});
