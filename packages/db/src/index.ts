export * from "./schema";
export * from "./connection";
export { isKnownMigration, latestMigrationName, migrateToLatest } from "./migrator";
