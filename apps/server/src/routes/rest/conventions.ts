import type { FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { refuseNulText } from "@tafsiri/api";
import { restErrorHandler } from "./error-handler";

/**
 * What every documented HTTP scope shares: routes declare zod schemas (validated and serialized
 * by fastify-type-provider-zod, described in the OpenAPI document) and failures answer
 * `{ status: 'failed', success: false, message }` through the one error handler. A path
 * parameter, query or JSON body holding U+0000 in any string answers 400 NUL_IN_TEXT before
 * validation (multipart forms are checked as they are read, plugins/upload-form.ts).
 */
export function useRestConventions(scope: FastifyInstance): void {
  scope.setValidatorCompiler(validatorCompiler);
  scope.setSerializerCompiler(serializerCompiler);
  scope.setErrorHandler(restErrorHandler);
  scope.addHook("preValidation", async (req) => refuseNulText([req.params, req.query, req.body]));
}
