import type { z } from "zod";
import { appRouter, type RestMeta } from "@tafsiri/api";

/** A procedure with a REST path (decision 033): its dotted tRPC path, metadata and zod schemas. */
export interface DerivedProcedure {
  /** `participants.list`. */
  procedure: string;
  meta: RestMeta;
  /** The procedure's input object; undefined for a procedure that takes none. */
  input: z.ZodObject | undefined;
  output: z.ZodType;
}

interface ProcedureDef {
  meta?: { rest?: RestMeta };
  inputs: unknown[];
  output?: unknown;
}

/**
 * Every procedure of the app router whose metadata names a REST path. Throws at start-up when one
 * has no output schema, or an input that is not an object (REST sends named fields).
 */
export function derivedProcedures(): DerivedProcedure[] {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>;
  return Object.entries(procedures).flatMap(([procedure, { _def }]) => {
    const meta = _def.meta?.rest;
    if (!meta) return [];
    const input = _def.inputs[0] as z.ZodType | undefined;
    if (!_def.output) throw new Error(`${procedure} has a REST path but no output schema`);
    if (input && (input as z.core.$ZodType)._zod.def.type !== "object")
      throw new Error(`${procedure} has a REST path but its input is not an object`);
    return [{ procedure, meta, input: input as z.ZodObject | undefined, output: _def.output as z.ZodType }];
  });
}
