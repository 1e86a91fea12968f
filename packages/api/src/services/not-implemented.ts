import { TRPCError } from "@trpc/server";

/** Placeholder for a procedure under construction; removed once every procedure is built. */
export function notImplemented(): never {
  throw new TRPCError({ code: "NOT_IMPLEMENTED", message: "Not implemented yet." });
}
