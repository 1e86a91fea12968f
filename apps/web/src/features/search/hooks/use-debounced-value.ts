import { useEffect, useState } from "react";

/**
 * `value`, once it has stopped changing for `delayMs` (the header search waits for a pause in
 * typing before it asks the server, SPEC §2.3). The first render answers `value` at once.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
