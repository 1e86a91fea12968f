import type { ColumnType, Generated } from "kysely";
import type { SignInMethod } from "@tafsiri/domain";

/** The sessions table (decision 038, migration 20261211001500_sessions). Part of `DB` (schema.ts). */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The sessions table, part of `DB`. */
export interface SessionTables {
  sessions: SessionTable;
}

/** One sign-in: who, how, from where, and until when. */
interface SessionTable {
  id: Generated<string>;
  userId: string;
  /** The user's session version it began under: a newer version has ended it (decision 012). */
  sessionVersion: number;
  method: SignInMethod;
  ip: string | null;
  userAgent: string | null;
  createdAt: CreatedAt;
  /** When the person last proved who they are in this session (sign-in, re-authentication). */
  verifiedAt: Timestamp;
  /** When its token was last issued (sign-in, renewal). */
  lastSeenAt: Timestamp;
  expiresAt: Date;
  /** Its sign-out; null while it runs. */
  endedAt: Date | null;
}
