import type { FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { restErrorHandler } from "./error-handler";

/**
 * What every documented HTTP scope shares: routes declare zod schemas (validated and serialized
 * by fastify-type-provider-zod, described in the OpenAPI document) and failures answer
 * `{ status: 'failed', success: false, message }` through the one error handler.
 */
export function useRestConventions(scope: FastifyInstance): void {
  scope.setValidatorCompiler(validatorCompiler);
  scope.setSerializerCompiler(serializerCompiler);
  scope.setErrorHandler(restErrorHandler);
}
