import { useEffect, useEffectEvent } from "react";
import { toast } from "sonner";

/** Shows an error toast once whenever `error` becomes set, with the text `message(error)`. */
export function useErrorToast<E>(error: E | null, message: (error: E) => string): void {
  const show = useEffectEvent((current: E) => toast.error(message(current)));
  useEffect(() => {
    if (error) show(error);
  }, [error]);
}
