import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { useTRPC } from "../../../lib/trpc";

/** How many of the newest notifications the bell lists. */
export const BELL_LIMIT = 20;

/**
 * The signed-in user's newest notifications and unread count (notifications.list), kept fresh by
 * the live events. A failed fetch toasts 'Error' / 'Failed to fetch notifications' (SPEC §8), so
 * call it once (the bell) and pass the result down.
 */
export function useNotifications() {
  const trpc = useTRPC();
  const query = useQuery(trpc.notifications.list.queryOptions({ limit: BELL_LIMIT }));
  const { error, errorUpdatedAt } = query;

  useEffect(() => {
    if (!error) return;
    console.error("Failed to fetch notifications", error);
    toast.error("Error", { description: "Failed to fetch notifications" });
  }, [error, errorUpdatedAt]);

  return query;
}
