import type { z } from "zod";
import { appRouter, type RestMeta } from "@tafsiri/api";

/** A procedure with a REST path (decision 033): its dotted tRPC path, metadata and zod schemas. */
export interface DerivedProcedure {
  /** `participants.list`. */
  procedure: string;
  meta: RestMeta;
  /** Decision 038: an admin who must still enrol a second factor may call it. */
  beforeEnrolment: boolean;
  /** The procedure's input object; undefined for a procedure that takes none. */
  input: z.ZodObject | undefined;
  output: z.ZodType;
}

interface ProcedureDef {
  meta?: { rest?: RestMeta; beforeEnrolment?: boolean };
  inputs: unknown[];
  output?: unknown;
}

/** The object under an input's optional, default or prefault (an input every field of which may be left out); null when none. */
function inputObject(input: z.ZodType): z.ZodObject | null {
  const def = (input as z.core.$ZodType)._zod.def;
  if (def.type === "object") return input as z.ZodObject;
  if (def.type === "optional" || def.type === "default" || def.type === "prefault")
    return inputObject((def as z.core.$ZodOptionalDef).innerType as z.ZodType);
  return null;
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
    const input = _def.inputs[0] === undefined ? undefined : inputObject(_def.inputs[0] as z.ZodType);
    if (!_def.output) throw new Error(`${procedure} has a REST path but no output schema`);
    if (input === null) throw new Error(`${procedure} has a REST path but its input is not an object`);
    const beforeEnrolment = _def.meta?.beforeEnrolment === true;
    return [{ procedure, meta, beforeEnrolment, input, output: _def.output as z.ZodType }];
  });
}
