import type { FastifyPluginAsync } from "fastify";
import type { AppDeps } from "@tafsiri/api";
import { authRoutes } from "./rest/auth";

export interface RestOptions {
  deps: AppDeps;
  /** Largest accepted upload in bytes. */
  maxUploadBytes: number;
}

/**
 * The REST compatibility layer of SPEC §7.1: thin adapters onto the tRPC procedures and
 * services, answering in the documented shapes (`_id`, `assigned_to`, ...).
 */
export const restRoutes: FastifyPluginAsync<RestOptions> = async (app, opts) => {
  await app.register(authRoutes, opts);
};
