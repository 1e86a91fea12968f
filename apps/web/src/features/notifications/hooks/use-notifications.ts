import { useEffect } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { useTRPC } from "#web/lib/trpc";

/** How many notifications the bell lists at first, and how many each 'Show older' adds. */
const BELL_LIMIT = 20;

/** SPEC §8: a failed fetch of the notifications, logged (the query's meta) and toasted. */
const FETCH_FAILED = "Failed to fetch notifications";

/**
 * The signed-in user's notifications (notifications.list), newest first: the newest BELL_LIMIT,
 * then BELL_LIMIT older ones each time `fetchNextPage` runs ('Show older', SPEC §2.3), with the
 * unread count; kept fresh by the live events (a refetch reloads every page shown, each from the
 * cursor its fresh predecessor answers). A failed fetch toasts 'Error' / 'Failed to fetch
 * notifications' (SPEC §8), so call it once (the bell) and pass the result down.
 */
export function useNotifications() {
  const trpc = useTRPC();
  const query = useInfiniteQuery(
    trpc.notifications.list.infiniteQueryOptions(
      { limit: BELL_LIMIT },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, meta: { errorMessage: FETCH_FAILED } },
    ),
  );
  const { error, errorUpdatedAt } = query;

  useEffect(() => {
    if (error) toast.error("Error", { description: FETCH_FAILED });
  }, [error, errorUpdatedAt]);

  return query;
}
