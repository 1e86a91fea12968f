import { z } from "zod";

/**
 * An example value of a zod schema for the OpenAPI document of a derived path (decision 033): the
 * schema's own `meta({ examples })` first; otherwise an object is composed from its fields'
 * examples, an array holds one example item, and a leaf takes its enum's first option, its
 * literal, its default, 1 for a number or false for a boolean. Undefined when nothing says what a value looks like.
 */
export function exampleOf(schema: z.ZodType): unknown {
  const meta = z.globalRegistry.get(schema);
  if (Array.isArray(meta?.examples) && meta.examples.length > 0) return meta.examples[0];
  const def = (schema as z.core.$ZodType)._zod.def;
  switch (def.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries((schema as z.ZodObject).shape)) {
        const value = exampleOf(field as z.ZodType);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case "array": {
      const item = exampleOf((schema as z.ZodArray<z.ZodType>).element);
      return item === undefined ? [] : [item];
    }
    case "optional":
    case "nullable":
      return exampleOf((schema as z.ZodOptional<z.ZodType>).unwrap());
    case "default": {
      const inner = exampleOf((schema as z.ZodDefault<z.ZodType>).unwrap());
      return inner ?? (def as z.core.$ZodDefaultDef).defaultValue;
    }
    case "pipe":
      return exampleOf((def as z.core.$ZodPipeDef).in as z.ZodType);
    case "enum":
      return (schema as z.ZodEnum).options[0];
    case "number":
      return 1;
    case "boolean":
      return false;
    case "literal":
      return (def as z.core.$ZodLiteralDef<z.core.util.Literal>).values[0];
    default:
      return undefined;
  }
}
