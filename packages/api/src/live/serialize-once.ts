/**
 * Serializing a live event once for every subscriber it reaches (decision 005).
 * One committed event goes to every connection that may see it; serializing it per connection
 * would repeat the same work a thousand times. Values marked with `shareSerialization` keep the
 * JSON text made the first time they are sent, and every later frame reuses it.
 */

/** Shared values → their JSON text (null until first serialized). */
const shared = new WeakMap<object, string | null>();

/** Marks `value` as sent to many connections and never changed afterwards: serialize it once. Returns `value`. */
export function shareSerialization<T extends object>(value: T): T {
  shared.set(value, null);
  return value;
}

/**
 * JSON.stringify(value), reusing the text made before when `value` was marked with
 * shareSerialization. `value` must not be undefined (JSON has no text for it).
 */
export function serializedJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  let json = shared.get(value);
  if (json === undefined) return JSON.stringify(value);
  if (json === null) {
    json = JSON.stringify(value);
    shared.set(value, json);
  }
  return json;
}
