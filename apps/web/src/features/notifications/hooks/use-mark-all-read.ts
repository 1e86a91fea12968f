import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { withAllRead, type NotificationPages } from "#web/lib/notification-pages";
import { useTRPC } from "#web/lib/trpc";

/**
 * 'Mark all as read' (SPEC §2.3): the server marks every unread notification of the caller Read;
 * the bell shows them Read and the badge goes at once, then refetches. A failure toasts 'Failed to
 * mark notifications as read' (the wording of SPEC §8's 'Failed to mark notification as read').
 */
export function useMarkAllRead() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.notifications.markAllRead.mutationOptions({
      onSuccess: () => {
        queryClient.setQueriesData<NotificationPages>(trpc.notifications.list.infiniteQueryFilter(), (data) =>
          withAllRead(data),
        );
      },
      onError: (error) => {
        console.error("Failed to mark notifications as read", error);
        toast.error("Failed to mark notifications as read");
      },
      onSettled: () => queryClient.invalidateQueries(trpc.notifications.pathFilter()),
    }),
  );
}
