import type { FastifyInstance, FastifySerializerCompiler } from "fastify";
import { ResponseSerializationError, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { $ZodType, safeParse } from "zod/v4/core";
import { refuseNulText } from "@tafsiri/api";
import { restErrorHandler } from "./error-handler";

/**
 * The zod schema kinds whose parse does the same in both directions: for these, zod's decode
 * (`safeParse`) and encode (`safeEncode`) accept the same values and answer equal values, keys in
 * the same order. Anything else (transform, pipe, codec, default, prefault, catch, success,
 * readonly, lazy, promise, function, and any kind not listed) may differ, so its schema keeps encode.
 */
const SAME_BOTH_WAYS = new Set([
  "string",
  "number",
  "int",
  "boolean",
  "bigint",
  "null",
  "undefined",
  "any",
  "unknown",
  "date",
  "literal",
  "enum",
  "template_literal",
  "nan",
  "custom",
  "object",
  "array",
  "record",
  "tuple",
  "union",
  "intersection",
  "nullable",
  "optional",
  "nonoptional",
]);

/** The child schemas of `schema` (by its def), for decodesAsItEncodes. */
function childrenOf(schema: $ZodType): unknown[] {
  const def = schema._zod.def as unknown as Record<string, unknown>;
  const children: unknown[] = [];
  const shape = def.shape as Record<string, unknown> | undefined;
  if (shape) children.push(...Object.values(shape));
  for (const key of ["catchall", "element", "keyType", "valueType", "rest", "left", "right", "innerType"])
    if (def[key]) children.push(def[key]);
  for (const key of ["options", "items"]) if (Array.isArray(def[key])) children.push(...(def[key] as unknown[]));
  return children;
}

/**
 * Whether every schema in `schema` is of a kind in SAME_BOTH_WAYS (walked once per route, when
 * its serializer is compiled). Returns false for anything not a zod schema.
 */
function decodesAsItEncodes(schema: unknown, seen = new Set<unknown>()): boolean {
  if (!(schema instanceof $ZodType)) return false;
  if (seen.has(schema)) return true;
  seen.add(schema);
  if (!SAME_BOTH_WAYS.has(schema._zod.def.type)) return false;
  return childrenOf(schema).every((child) => decodesAsItEncodes(child, seen));
}

/**
 * The REST scope's answer serializer: fastify-type-provider-zod's (zod `safeEncode`, then
 * `JSON.stringify`), except that an answer schema made only of kinds that parse the same both
 * ways (SAME_BOTH_WAYS: no transform, codec or default anywhere) is checked with zod `safeParse`
 * instead. That checks the same rules and answers the same bytes, and is several times cheaper on
 * long lists (zod runs its compiled object parser only forwards; encode parses each checked value
 * twice): the team report's 200 rows took 0.6–0.8 ms to encode, 0.1 ms to parse
 * (docs/performance.md "Lists"). An answer failing its schema throws ResponseSerializationError
 * (500) as before.
 */
const restSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const schema = route.schema;
  if (!decodesAsItEncodes(schema)) return serializerCompiler(route as never);
  return (data: unknown) => {
    const result = safeParse(schema as $ZodType, data);
    if (result.error) throw new ResponseSerializationError(route.method, route.url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

/**
 * What every documented HTTP scope shares: routes declare zod schemas (validated and serialized
 * by fastify-type-provider-zod, answers through restSerializerCompiler, described in the OpenAPI
 * document) and failures answer
 * `{ status: 'failed', success: false, message }` through the one error handler. A path
 * parameter, query or JSON body holding U+0000 in any string answers 400 NUL_IN_TEXT before
 * validation (multipart forms are checked as they are read, plugins/upload-form.ts).
 */
export function useRestConventions(scope: FastifyInstance): void {
  scope.setValidatorCompiler(validatorCompiler);
  scope.setSerializerCompiler(restSerializerCompiler);
  scope.setErrorHandler(restErrorHandler);
  scope.addHook("preValidation", async (req) => refuseNulText([req.params, req.query, req.body]));
}

/**
 * The validator of a route whose body (and, with `headers`, whose headers) its handler reads
 * itself, a multipart stream, a CSV text or tus's bytes: those parts' schemas only document them;
 * params and query are still validated.
 */
export function documentedOnly(...parts: Array<"body" | "headers">) {
  return (route: { httpPart?: string }) =>
    parts.includes(route.httpPart as "body" | "headers")
      ? (data: unknown) => ({ value: data })
      : validatorCompiler(route as never);
}
