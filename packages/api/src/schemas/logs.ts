import { z } from "zod";
import { ZId, ZUserRef } from "./common";

/** The Logs page's page size. */
const LOGS_PAGE_SIZE = 50;

const dateBound = (name: "from" | "to") =>
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: `${name} must be an ISO date (YYYY-MM-DD) or date-time (e.g. 2026-11-01T00:00:00Z).`,
  });

/**
 * The Logs filters: the actor, the action (as written in the audit log, e.g. 'approve') and the
 * period [from, to) of the entries' time, each bound an ISO date (midnight in APP_TIMEZONE) or an
 * ISO date-time with Z or an offset; every filter optional.
 */
const ZLogFilters = z.object({
  actorId: ZId.optional(),
  action: z.string().trim().min(1).max(100).optional(),
  from: dateBound("from").optional(),
  to: dateBound("to").optional(),
});

/** logs.list's input: a page (from 1) of `limit` entries (default 50, at most 100) and the filters. */
export const ZLogListInput = ZLogFilters.extend({
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(100).default(LOGS_PAGE_SIZE),
});
export type LogListInput = z.infer<typeof ZLogListInput>;

/** One row of the Logs page. */
const ZLogEntry = z.object({
  id: z.string(),
  /** ISO time of the change. */
  createdAt: z.string(),
  /** Who made it; null when the account is gone or there was no actor. */
  actor: ZUserRef.nullable(),
  /** The action as written, e.g. 'approve'. */
  action: z.string(),
  /** What kind of thing it concerns, e.g. 'transcript', 'task', 'user'. */
  entity: z.string(),
  /** The action in words, without the actor: 'approved the transcript of acc-101-0'. */
  sentence: z.string(),
  /** The audio it concerns, `filename` null when the audio has been deleted (then it cannot be opened). */
  audio: z.object({ id: z.string(), filename: z.string().nullable(), exists: z.boolean() }).nullable(),
  /** The user it concerns, `username` null when the account is gone. */
  user: z.object({ id: z.string(), username: z.string().nullable() }).nullable(),
});
export type LogEntry = z.infer<typeof ZLogEntry>;

export const ZLogList = z.object({ items: z.array(ZLogEntry), totalPages: z.number().int() });
export type LogList = z.infer<typeof ZLogList>;

/** The choices of the Logs filters: the actions in the log with a label, and the users who acted. */
export const ZLogFilterChoices = z.object({
  actions: z.array(z.object({ value: z.string(), label: z.string() })),
  actors: z.array(ZUserRef),
});
export type LogFilterChoices = z.infer<typeof ZLogFilterChoices>;
