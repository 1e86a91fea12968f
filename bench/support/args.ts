/**
 * `value` of the command-line option `--<name>` as a whole number of at least `min`; throws a
 * message naming the option otherwise.
 */
export function wholeNumber(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be a whole number of at least ${min} (got ${value}).`);
  return n;
}

/**
 * `value` of the command-line option `--<name>` as a number of ms, at least 0; undefined when
 * the option was not given. Throws a message naming the option otherwise.
 */
export function optionalMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!(ms >= 0)) throw new Error(`--${name} must be a number of ms.`);
  return ms;
}
