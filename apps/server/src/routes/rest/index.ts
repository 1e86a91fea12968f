import type { FastifyPluginAsync } from "fastify";
import fastifyMultipart from "@fastify/multipart";
import type { RestOptions } from "./options";
import { authenticateRequest } from "./authenticate";
import { useRestConventions } from "./conventions";
import { accountRoutes, authRoutes } from "./auth";
import { audioRoutes } from "./audios";
import { fetchFilesRoutes } from "./fetch-files";
import { taskRoutes } from "./tasks";
import { uploadRoutes } from "./uploads";
import { resumableUploadRoutes } from "./resumable-uploads";
import { notificationRoutes } from "./notifications";
import { recommendationRoutes } from "./recommendations";
import { reviewRoutes } from "./reviews";
import { submissionRoutes } from "./submissions";
import { searchRoutes } from "./search";
import { recommendedRecordingRoutes } from "./recommended-recordings";
import { statisticsRoutes } from "./statistics";
import { exportRoutes } from "./exports";
import { participantRoutes } from "./participants";
import { derivedRoutes } from "./derived/derived-routes";

/**
 * The REST compatibility layer of SPEC §7.1 as one Fastify scope: one `onRequest` hook
 * authenticates and puts a caller on the request, one error handler answers every failure in
 * the documented shape, and each route declares its params, query, body and answers as zod
 * schemas (validated here and turned into the OpenAPI document). Handlers call the same
 * procedures and services the web app uses, so REST holds no rules of its own. Multipart
 * parsing lives in this scope only (tRPC has its own parsers in a sibling scope, STYLE §6).
 */
export const restRoutes: FastifyPluginAsync<RestOptions> = async (app, opts) => {
  useRestConventions(app);
  app.decorateRequest("user", null);
  app.decorateRequest("caller", null as never);
  app.addHook("onRequest", opts.limitRequests);
  app.addHook("onRequest", authenticateRequest(opts.deps));
  await app.register(fastifyMultipart, { limits: { fileSize: opts.maxUploadBytes } });

  await app.register(authRoutes, opts);
  await app.register(accountRoutes, opts);
  await app.register(uploadRoutes, opts);
  await app.register(resumableUploadRoutes, opts);
  await app.register(fetchFilesRoutes, opts);
  await app.register(taskRoutes, opts);
  await app.register(audioRoutes, opts);
  await app.register(notificationRoutes, opts);
  await app.register(recommendationRoutes, opts);
  await app.register(reviewRoutes, opts);
  await app.register(submissionRoutes, opts);
  await app.register(searchRoutes, opts);
  await app.register(recommendedRecordingRoutes, opts);
  await app.register(statisticsRoutes, opts);
  await app.register(exportRoutes, opts);
  await app.register(participantRoutes, opts);
  await app.register(derivedRoutes, opts);
};
