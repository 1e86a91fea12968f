import { useEffect } from "react";

/** SPEC §8: a statistics failure is only logged to the console (the screen shows a neutral message). */
export function useLoggedError(what: string, error: unknown): void {
  useEffect(() => {
    if (error) console.error(`${what} could not be loaded`, error);
  }, [what, error]);
}
