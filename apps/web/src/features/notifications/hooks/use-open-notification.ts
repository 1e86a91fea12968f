import { useCallback } from "react";
import { useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { NotificationItem } from "#web/lib/api-types";
import { withRead, type NotificationPages } from "#web/lib/notification-pages";
import { setCurrentAudioId } from "#web/lib/current-audio";
import { useTRPC, useTRPCClient } from "#web/lib/trpc";
import { paths } from "#web/config/paths";

/** The entry's link when it is a path of this app ("/…", not "//host"), else the audio screen (SPEC §2.1). */
function inAppPath(link: string): string {
  return /^\/(?!\/)/.test(link) ? link : paths.audio;
}

/**
 * Opening a bell entry (SPEC §2.13, §8): an unread one is marked read first (a failure toasts
 * 'Failed to mark notification as read'). Then a missing audio id warns 'The audio ID is
 * invalid.', a deleted audio warns 'The audio is no longer available.'; otherwise the audio
 * becomes the current audio and the browser goes to the entry's link.
 */
export function useOpenNotification(): (item: NotificationItem) => Promise<void> {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return useCallback(
    async (item: NotificationItem) => {
      if (!item.isRead) {
        try {
          await client.notifications.markRead.mutate({ id: item.id });
          queryClient.setQueriesData<NotificationPages>(trpc.notifications.list.infiniteQueryFilter(), (data) =>
            withRead(data, (entry) => entry.id === item.id),
          );
        } catch (error) {
          console.error("Failed to mark notification as read", error);
          toast.error("Failed to mark notification as read");
        }
        void queryClient.invalidateQueries(trpc.notifications.pathFilter());
      }
      if (!item.audioId) {
        toast.warning("The audio ID is invalid.");
        return;
      }
      if (!item.audioAvailable) {
        toast.warning("The audio is no longer available.");
        return;
      }
      setCurrentAudioId(item.audioId);
      await navigate(inAppPath(item.link));
    },
    [client, navigate, queryClient, trpc],
  );
}
