import type { ColumnType, Generated } from "kysely";

/**
 * The tables of passkeys (decision 038, migration 20261211001400_passkeys). Part of `DB`
 * (schema.ts).
 */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** bigint comes back as a string from pg (and PGlite); the repository turns it into a number. */
type Counter = ColumnType<string | number, number | undefined, number>;

/** What a WebAuthn challenge was made for. */
export type WebauthnChallengePurpose = "register" | "sign-in" | "confirm";

/** The passkey tables, part of `DB`. */
export interface PasskeyTables {
  passkeys: PasskeyTable;
  webauthnChallenges: WebauthnChallengeTable;
}

/** A passkey: one WebAuthn credential of one person. */
interface PasskeyTable {
  id: Generated<string>;
  userId: string;
  /** The credential's id, base64url (unique across accounts). */
  credentialId: string;
  /** Its COSE public key. */
  publicKey: Uint8Array;
  /** The signature counter it last reported (0 for passkeys that keep none). */
  counter: Counter;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  deviceType: "singleDevice" | "multiDevice";
  backedUp: ColumnType<boolean, boolean | undefined, boolean>;
  name: string;
  createdAt: CreatedAt;
  lastUsedAt: Date | null;
}

/** A ceremony begun: used once, within its expiry. */
interface WebauthnChallengeTable {
  challenge: string;
  /** Whose registration or confirmation it is; null for a sign-in, which names nobody. */
  userId: string | null;
  purpose: WebauthnChallengePurpose;
  expiresAt: Date;
  createdAt: CreatedAt;
}
