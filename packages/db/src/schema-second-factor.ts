import type { ColumnType, Generated } from "kysely";

/**
 * The tables of the second factor (decision 038, migration 20261211001300_totp): TOTP factors,
 * recovery codes and failed codes. Part of `DB` (schema.ts).
 */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A time that may be set later (a failure's time, moved back by tests of the lockout's end). */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint columns come back as strings from pg; the repository converts them. */
type BigIntColumn = ColumnType<string, number | bigint | string, number | bigint | string>;

/** The second factor's tables, part of `DB`. */
export interface SecondFactorTables {
  totpFactors: TotpFactorTable;
  recoveryCodes: RecoveryCodeTable;
  secondFactorFailures: SecondFactorFailureTable;
}

/** A user's authenticator app: on once `confirmedAt` is set. */
interface TotpFactorTable {
  userId: string;
  /** The base32 secret the app was given (RFC 6238, otplib's defaults). */
  secret: string;
  createdAt: CreatedAt;
  /** When a first code confirmed it; null while enrolment is unfinished. */
  confirmedAt: Date | null;
  /** The last 30-second time step a code was accepted for; a step at or before it is refused. */
  lastUsedStep: BigIntColumn | null;
}

/** One single-use recovery code, kept as its SHA-256. */
interface RecoveryCodeTable {
  id: Generated<string>;
  userId: string;
  codeHash: string;
  createdAt: CreatedAt;
  usedAt: Date | null;
}

/** One wrong code: whose account and from which address (the lockout counts these). */
interface SecondFactorFailureTable {
  id: Generated<string>;
  userId: string | null;
  ip: string | null;
  createdAt: Timestamp;
}
