import { describe, expect, it } from "vitest";
import type { LogEntry } from "#web/lib/api-types";
import { logsCsv } from "./log-csv";

const ENTRY: LogEntry = {
  id: "l1",
  createdAt: "2026-11-23T16:54:00.000Z",
  actor: { id: "a1", username: "logs_admin_two" },
  action: "approve",
  entity: "transcript",
  sentence: "approved the transcript of logs-river-beta",
  audio: { id: "au1", filename: "logs-river-beta", exists: true },
  user: null,
};

describe("logsCsv (the Logs page's 'Download CSV')", () => {
  it("writes the header, then each entry with its time in ISO and its action as written", () => {
    expect(logsCsv([ENTRY]).split("\r\n")).toEqual([
      "Time,Actor,Action,Concerns,Action code,Entity",
      "2026-11-23T16:54:00.000Z,logs_admin_two,approved the transcript of logs-river-beta,logs-river-beta,approve,transcript",
      "",
    ]);
  });

  it("says what an entry concerns when its actor, audio or user is gone", () => {
    const rows = logsCsv([
      { ...ENTRY, actor: null, audio: { id: "au1", filename: "old-take", exists: false } },
      { ...ENTRY, audio: { id: "au2", filename: null, exists: false } },
      { ...ENTRY, audio: null, user: { id: "u1", username: null }, entity: "user" },
      { ...ENTRY, audio: null, user: { id: "u2", username: "amina" }, entity: "user" },
      { ...ENTRY, audio: null },
    ])
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(",").slice(1, 4));
    expect(rows).toEqual([
      ["Unknown User", "approved the transcript of logs-river-beta", "old-take (deleted)"],
      ["logs_admin_two", "approved the transcript of logs-river-beta", "Unknown audio (deleted)"],
      ["logs_admin_two", "approved the transcript of logs-river-beta", "Deleted user"],
      ["logs_admin_two", "approved the transcript of logs-river-beta", "amina"],
      ["logs_admin_two", "approved the transcript of logs-river-beta", ""],
    ]);
  });
});
