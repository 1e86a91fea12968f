import { z } from "zod";
import { restSchema, renameFields, restFieldName } from "./field-names";
import { exampleOf } from "./example-of";
import type { DerivedProcedure } from "./derived-procedures";
import { DONE, ZDoneFields, ZPagination } from "../shapes/common";

/**
 * Decision 033: what a derived path answers, as a value and as a zod schema for the OpenAPI
 * document, both from the procedure's output and its metadata, by the same three steps: a list's
 * `items` under its key with `pagination: { totalPages }`, field names in REST spelling where the
 * metadata says `snakeCase`, and the success fields of a change (`done`).
 */

/** The REST answer of `output`, the procedure's answer. */
export function restAnswer({ meta }: Pick<DerivedProcedure, "meta">, output: unknown): unknown {
  const rename = (value: unknown) => (meta.snakeCase ? renameFields(value, restFieldName) : value);
  let answer: unknown;
  if (meta.list) {
    const { items, totalPages, ...rest } = output as { items: unknown[]; totalPages: number };
    answer = { [meta.list.key]: rename(items), ...(rename(rest) as object), pagination: { totalPages } };
  } else answer = rename(output);
  return meta.done ? { ...DONE, ...(answer as object) } : answer;
}

/** The zod schema of restAnswer's value, with an example made by restAnswer itself. */
export function restAnswerSchema(derived: DerivedProcedure): z.ZodType {
  const { meta, output } = derived;
  const rename = (schema: z.ZodType) => (meta.snakeCase ? restSchema(schema) : schema);
  let schema: z.ZodType;
  if (meta.list) {
    const { items, totalPages: _pages, ...rest } = (output as z.ZodObject).shape;
    const fields = (rename(z.object(rest)) as z.ZodObject).shape;
    schema = z.object({ [meta.list.key]: rename(items as z.ZodType), ...fields, pagination: ZPagination });
  } else schema = rename(output);
  if (meta.done) schema = z.object({ ...ZDoneFields, ...(schema as z.ZodObject).shape });
  return schema.meta({ examples: [restAnswer(derived, exampleOf(output))] });
}

/**
 * The request fields of a derived path as the OpenAPI document shows them (query for GET, JSON
 * body otherwise): the input's fields but those its path parameters fill, in REST spelling, with
 * an example. Undefined when nothing is left to send.
 */
export function restRequestSchema({ meta, input }: DerivedProcedure): z.ZodObject | undefined {
  if (!input) return undefined;
  const filled = Object.values(meta.params ?? {});
  const shape = Object.fromEntries(Object.entries(input.shape).filter(([key]) => !filled.includes(key)));
  if (Object.keys(shape).length === 0) return undefined;
  const given = z.globalRegistry.get(input)?.examples;
  const examples = (Array.isArray(given) && given.length > 0 ? given : [exampleOf(input) ?? {}]).map((example) =>
    Object.fromEntries(Object.entries(example as object).filter(([key]) => !filled.includes(key))),
  );
  const fields = z.object(shape as z.ZodRawShape);
  const schema = (meta.snakeCase ? restSchema(fields) : fields) as z.ZodObject;
  return schema.meta({ examples: meta.snakeCase ? examples.map((e) => renameFields(e, restFieldName)) : examples });
}
