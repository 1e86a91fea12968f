import { AppError } from "./app-error";

/**
 * PostgreSQL (and PGlite) cannot store or compare U+0000 in text, so a NUL character in
 * any input string is refused at the boundary (tRPC's procedures, the REST scopes, upload forms)
 * with this 400 message, before anything runs. Every other character is accepted.
 */
export const NUL_IN_TEXT = "Text must not contain the NUL character (U+0000).";

const NUL = "\u0000";

/** True for a `{}` or `Object.create(null)` object (JSON objects, parsed queries and params). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * True when `value` holds U+0000 in a string anywhere: the value itself, an array's
 * items, or a plain object's keys and values, at any depth (walked without recursion, so a deeply
 * nested JSON body cannot overflow the stack). Other objects (Buffers, streams, dates) are not
 * looked into.
 */
function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  const seen = new WeakSet<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (item.includes(NUL)) return true;
    } else if (Array.isArray(item) || isPlainObject(item)) {
      if (seen.has(item)) continue;
      seen.add(item);
      for (const [key, child] of Object.entries(item)) {
        if (key.includes(NUL)) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/**
 * Throws AppError BAD_REQUEST NUL_IN_TEXT when `value` holds U+0000 anywhere (holdsNul);
 * returns nothing otherwise.
 */
export function refuseNulText(value: unknown): void {
  if (holdsNul(value)) throw new AppError("BAD_REQUEST", NUL_IN_TEXT);
}

/**
 * True when `error` is the database refusing U+0000 (PostgreSQL and PGlite alike): code
 * 22021 'invalid byte sequence for encoding "UTF8": 0x00' for text, or 22P05 'unsupported Unicode
 * escape sequence' for `\u0000` in jsonb. The safety net behind the boundary checks.
 */
export function isNulRefusedByDatabase(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === "22P05") return true;
  return code === "22021" && typeof message === "string" && message.includes("0x00");
}
