import type { FastifyPluginAsync } from "fastify";
import fastifyMultipart from "@fastify/multipart";
import type { AppDeps } from "@tafsiri/api";
import { authRoutes } from "./rest/auth";
import { audioRoutes } from "./rest/audios";
import { fetchFilesRoutes } from "./rest/fetch-files";
import { taskRoutes } from "./rest/tasks";
import { uploadRoutes } from "./rest/uploads";
import { notificationRoutes } from "./rest/notifications";
import { recommendationRoutes } from "./rest/recommendations";

export interface RestOptions {
  deps: AppDeps;
  /** Largest accepted upload in bytes. */
  maxUploadBytes: number;
}

/**
 * The REST compatibility layer of SPEC §7.1: thin adapters onto the tRPC procedures and
 * services, answering in the documented shapes (`_id`, `assigned_to`, ...). Multipart parsing
 * lives in this scope only (tRPC has its own parsers in a sibling scope, STYLE §6).
 */
export const restRoutes: FastifyPluginAsync<RestOptions> = async (app, opts) => {
  await app.register(fastifyMultipart, { limits: { fileSize: opts.maxUploadBytes } });
  await app.register(authRoutes, opts);
  await app.register(uploadRoutes, opts);
  await app.register(fetchFilesRoutes, opts);
  await app.register(taskRoutes, opts);
  await app.register(audioRoutes, opts);
  await app.register(notificationRoutes, opts);
  await app.register(recommendationRoutes, opts);
};
