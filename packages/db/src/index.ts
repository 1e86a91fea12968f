export * from "./schema";
export * from "./connection";
export { migrateToLatest } from "./migrator";
