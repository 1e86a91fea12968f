import { describe, expect, it } from "vitest";
import { logQuery, type LogFilterValues } from "./log-filters";

const NONE: LogFilterValues = { actorId: "", action: "", from: "", to: "" };

describe("logQuery (the Logs filters as logs.list asks them)", () => {
  it("asks for everything with no filter set", () => {
    expect(logQuery(NONE)).toEqual({ ok: true, input: {} });
  });

  it("passes the actor and action, and includes the To day by sending the next day", () => {
    expect(logQuery({ actorId: "u1", action: "approve", from: "2026-02-01", to: "2026-02-28" })).toEqual({
      ok: true,
      input: { actorId: "u1", action: "approve", from: "2026-02-01", to: "2026-03-01" },
    });
    expect(logQuery({ ...NONE, from: "2026-02-10", to: "2026-02-10" })).toEqual({
      ok: true,
      input: { from: "2026-02-10", to: "2026-02-11" },
    });
    expect(logQuery({ ...NONE, to: "2026-12-31" })).toEqual({ ok: true, input: { to: "2027-01-01" } });
  });

  it("refuses a date that is not a YYYY-MM-DD day, one that does not exist among them", () => {
    const error = { ok: false, error: "Enter dates as YYYY-MM-DD." };
    expect(logQuery({ ...NONE, from: "10/02/2026" })).toEqual(error);
    expect(logQuery({ ...NONE, to: "2026-2-1" })).toEqual(error);
    expect(logQuery({ ...NONE, from: "2026-02-30" })).toEqual(error);
  });

  it("refuses From after To", () => {
    expect(logQuery({ ...NONE, from: "2026-02-10", to: "2026-02-09" })).toEqual({
      ok: false,
      error: "From must be on or before To.",
    });
  });
});
