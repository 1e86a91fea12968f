import { sql, type Kysely } from "kysely";

/**
 * Sessions that can be ended (decision 012): each user's session version, carried in every
 * token. Deactivation, reactivation, a password change or reset and 'Sign out everywhere' add one
 * to it, after which tokens with an older version are refused. Tokens issued before this
 * migration carry no version and are refused, so everyone signs in once more.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("session_version", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`session_version > 0`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("session_version").execute();
}
