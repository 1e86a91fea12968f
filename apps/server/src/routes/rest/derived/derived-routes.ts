import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "@tafsiri/api";
import type { RestOptions } from "../options";
import { pagedDescription, sendPageLinks } from "../paging";
import { ZPathId, ZRestFailure } from "../shapes/common";
import { BODY_NOT_AN_OBJECT } from "../error-handler";
import { derivedProcedures, type DerivedProcedure } from "./derived-procedures";
import { procedureFieldName, renameFields } from "./field-names";
import { restAnswer, restAnswerSchema, restRequestSchema } from "./rest-shapes";

const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** The type under a field's optional, nullable and default: "number", "string", "object"… */
function baseType(field: z.ZodType): string {
  const def = (field as z.core.$ZodType)._zod.def;
  if (def.type === "optional" || def.type === "nullable" || def.type === "default")
    return baseType((def as z.core.$ZodOptionalDef).innerType as z.ZodType);
  return def.type;
}

/**
 * A query value as the procedure takes it: empty is left out, page and limit are positive whole
 * numbers (as every list says), a number field's digits are a number.
 */
function queryValue(name: string, value: unknown, field: z.ZodType | undefined): unknown {
  if (typeof value !== "string") return value;
  if (value === "") return undefined;
  if (name === "page" || name === "limit") {
    if (!/^[1-9]\d*$/.test(value)) throw new AppError("BAD_REQUEST", `${name} must be a positive whole number.`);
    return Number(value);
  }
  const numeric = field !== undefined && baseType(field) === "number";
  return numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/** The procedure's input of a REST request: query (GET) or JSON body, renamed, plus the path parameters. */
function procedureInput(req: FastifyRequest, { meta, input }: DerivedProcedure): unknown {
  if (!input) return undefined;
  const sent: unknown = meta.method === "GET" ? req.query : (req.body ?? {});
  if (typeof sent !== "object" || sent === null || Array.isArray(sent))
    throw new AppError("BAD_REQUEST", BODY_NOT_AN_OBJECT);
  const fields = (meta.snakeCase ? renameFields(sent, procedureFieldName) : { ...sent }) as Record<string, unknown>;
  if (meta.method === "GET")
    for (const [name, value] of Object.entries(fields))
      fields[name] = queryValue(name, value, input.shape[name] as z.ZodType | undefined);
  const params = req.params as Record<string, string>;
  for (const [param, field] of Object.entries(meta.params ?? {})) fields[field] = params[param];
  return fields;
}

/** The function of `req.caller` that calls the procedure at dotted `path`. */
function callerOf(req: FastifyRequest, path: string): (input: unknown) => Promise<unknown> {
  return path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], req.caller) as never;
}

/** The route options of a derived path: its OpenAPI entry from the metadata and the procedure's schemas. */
function routeSchema(derived: DerivedProcedure) {
  const { meta } = derived;
  const request = restRequestSchema(derived);
  const params = Object.keys(meta.params ?? {});
  return {
    summary: meta.summary,
    description: meta.list ? `${meta.description} ${pagedDescription(meta.list.defaultLimit)}` : meta.description,
    tags: meta.tags,
    security: meta.public ? [] : BEARER,
    ...(params.length > 0 ? { params: z.object(Object.fromEntries(params.map((name) => [name, ZPathId]))) } : {}),
    ...(request ? (meta.method === "GET" ? { querystring: request } : { body: request }) : {}),
    response: { [meta.status ?? 200]: restAnswerSchema(derived), "4xx": ZRestFailure, "5xx": ZRestFailure },
  };
}

/**
 * Decision 033: one route for each procedure whose metadata names a REST path. The procedure
 * validates the request (its own messages) and shapes nothing twice: the answer is its output,
 * already checked by its output schema, reshaped by restAnswer and written with JSON.stringify.
 * Failures answer through the REST scope's error handler like every other path.
 */
export const derivedRoutes: FastifyPluginAsync<RestOptions> = async (app) => {
  for (const derived of derivedProcedures()) {
    const { meta } = derived;
    app.route({
      method: meta.method,
      url: meta.path,
      schema: routeSchema(derived),
      config: { beforeEnrolment: derived.beforeEnrolment },
      validatorCompiler: () => (value: unknown) => ({ value }),
      serializerCompiler: () => (data: unknown) => JSON.stringify(data),
      handler: async (req, reply) => {
        const output = await callerOf(req, derived.procedure)(procedureInput(req, derived));
        if (meta.list) {
          const page = (req.query as { page?: string }).page;
          sendPageLinks(req, reply, page ? Number(page) : undefined, (output as { totalPages: number }).totalPages);
        }
        reply.code(meta.status ?? 200);
        return restAnswer(derived, output);
      },
    });
  }
};
