import type { TestProject } from "vitest/node";
import { prepareTemplate } from "@tafsiri/db/testing/template";

/** Migrates one template database per run; each test file clones it (see createTestDb). */
export default async function setup(project: TestProject) {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const { info, cleanup } = await prepareTemplate(databaseUrl);
  project.provide("dbTemplate", info);
  return cleanup;
}
