import { z } from "zod";

/**
 * Decision 033: the REST spelling of a derived path whose metadata says `snakeCase`: the
 * procedure's camelCase field names in snake_case and `id` as `_id`, in answers, bodies, queries
 * and their OpenAPI schemas alike. Only field names change; values are left as they are.
 */

/** `ageMonthsToday` → `age_months_today`, `id` → `_id`. */
export function restFieldName(name: string): string {
  return name === "id" ? "_id" : name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `age_months_today` → `ageMonthsToday`, `_id` → `id`: the inverse of restFieldName. */
export function procedureFieldName(name: string): string {
  return name === "_id" ? "id" : name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` with every object's field names renamed by `rename`, at any depth (arrays kept). */
export function renameFields(value: unknown, rename: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameFields(item, rename));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[rename(key)] = renameFields(item, rename);
  return out;
}

/** Copies `from`'s description and examples (field names renamed) onto `to`. */
function withMeta<T extends z.ZodType>(to: T, from: z.ZodType): T {
  const meta = z.globalRegistry.get(from);
  if (!meta) return to;
  const examples = Array.isArray(meta.examples)
    ? meta.examples.map((example) => renameFields(example, restFieldName))
    : meta.examples;
  return to.meta({ ...meta, examples }) as T;
}

/**
 * The zod schema `schema` with its objects' field names in REST spelling, for the OpenAPI
 * document (decision 033): objects, arrays, optional, nullable and default are cloned (their own
 * checks kept) with their fields renamed, a pipe is what goes in, anything else is a leaf kept as
 * is. Only the document reads it: the procedure itself validates every request.
 */
export function restSchema(schema: z.ZodType): z.ZodType {
  const def = (schema as z.core.$ZodType)._zod.def;
  // clone keeps each schema's own checks (lengths, formats); only the parts holding fields change.
  const rebuilt = (changes: object) => withMeta((schema as z.ZodType).clone({ ...def, ...changes } as never), schema);
  switch (def.type) {
    case "object": {
      const shape: Record<string, z.ZodType> = {};
      for (const [key, field] of Object.entries((schema as z.ZodObject).shape))
        shape[restFieldName(key)] = restSchema(field as z.ZodType);
      return rebuilt({ shape });
    }
    case "array":
      return rebuilt({ element: restSchema((def as z.core.$ZodArrayDef).element as z.ZodType) });
    case "optional":
    case "nullable":
    case "default":
      return rebuilt({ innerType: restSchema((def as z.core.$ZodOptionalDef).innerType as z.ZodType) });
    case "pipe":
      // A transform (repeats dropped, text trimmed): the REST request is what goes in.
      return withMeta(restSchema((def as z.core.$ZodPipeDef).in as z.ZodType), schema);
    default:
      return schema;
  }
}
