import { useCallback, useEffect, useRef } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import type { LiveEvent } from "@tafsiri/api";
import type { NotificationItem } from "#web/lib/api-types";
import { withNewNotification, type NotificationPages } from "#web/lib/notification-pages";
import { announce } from "#web/lib/announce";
import { writeSession } from "#web/lib/session";
import { useSession } from "#web/hooks/use-session";
import { useTRPC } from "#web/lib/trpc";
import { paths } from "#web/config/paths";

/** How long to wait before subscribing again after the subscription failed (ms). */
const RETRY_MS = 5_000;
/** Events this close together share one refetch of each query they touch (ms). */
const BATCH_MS = 30;

/** Whether a notification leads to the Recommended Recordings page (paths match case-insensitively). */
function linksToRecordings(link: string): boolean {
  return link.replace(/\/+$/, "").toLowerCase() === paths.recordings.toLowerCase();
}

/**
 * The queries a live event makes stale: the bell for a notification (and the recommended
 * recordings for a recommendation's notification, which links to /Recordings); for a change to an
 * audio's task, transcript, recording, comments, assignment or recommendations (or its deletion),
 * every task, audio, recommended-recording and submission list, review mode's queue (decision 025), the Dashboard's statistics and
 * that audio's details, transcript, recording, comments and recommendation check; for a dataset
 * export that started, moved on or ended, the Export page's list only. With no
 * event (the subscription has just (re)started) all of them.
 */
function useStaleKeys(): (event: LiveEvent | null) => QueryKey[] {
  const trpc = useTRPC();
  return useCallback(
    (event) => {
      // An export's progress comes up to twice a second and is not audited (only its start is):
      // it refetches the exports alone, not the Logs page.
      if (event?.kind === "export.changed") return [trpc.exports.pathKey()];
      // Every other change writes an audit entry: the Logs page refetches on it.
      const keys: QueryKey[] = [trpc.logs.pathKey()];
      if (!event) keys.push(trpc.exports.pathKey());
      if (!event || event.kind === "notification.created" || event.kind === "audio.deleted") {
        keys.push(trpc.notifications.pathKey());
      }
      if (event?.notification && linksToRecordings(event.notification.link)) {
        keys.push(trpc.recommendations.list.pathKey());
      }
      if (!event || event.kind === "audio.changed" || event.kind === "audio.deleted") {
        keys.push(
          trpc.tasks.pathKey(),
          trpc.audios.list.pathKey(),
          trpc.audios.unassigned.pathKey(),
          trpc.recommendations.list.pathKey(),
          trpc.submissions.list.pathKey(),
          trpc.submissions.reviewQueue.pathKey(),
          trpc.statistics.pathKey(),
        );
        if (event?.audioId) {
          const input = { audioId: event.audioId };
          keys.push(
            trpc.audios.get.queryKey(input),
            trpc.transcripts.get.queryKey(input),
            trpc.recordings.get.queryKey(input),
            trpc.comments.list.queryKey(input),
            trpc.recommendations.check.queryKey(input),
          );
        } else {
          keys.push(
            trpc.audios.pathKey(),
            trpc.transcripts.pathKey(),
            trpc.recordings.pathKey(),
            trpc.comments.pathKey(),
            trpc.recommendations.pathKey(),
          );
        }
      }
      return keys;
    },
    [trpc],
  );
}

/**
 * Returns a function applying one live event to the query cache: a new notification is added
 * to the bell at once and announced to screen readers, then the stale queries are refetched (only those on screen; the rest are
 * marked stale), once per burst of events.
 */
function useApplyEvent(): (event: LiveEvent) => void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const staleKeys = useStaleKeys();
  const pending = useRef(new Map<string, QueryKey>());
  const timer = useRef<number | null>(null);

  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );

  return useCallback(
    (event) => {
      if (event.notification) {
        // The event carries the new entry, so the badge rises now; the refetch confirms it.
        const item: NotificationItem = event.notification;
        if (event.kind === "notification.created" && !item.isRead) announce(`New notification: ${item.message}`);
        queryClient.setQueriesData<NotificationPages>(trpc.notifications.list.infiniteQueryFilter(), (data) =>
          withNewNotification(data, item),
        );
      }
      for (const key of staleKeys(event)) pending.current.set(JSON.stringify(key), key);
      if (timer.current !== null) return;
      timer.current = window.setTimeout(() => {
        timer.current = null;
        const keys = [...pending.current.values()];
        pending.current.clear();
        for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
      }, BATCH_MS);
    },
    [queryClient, staleKeys, trpc],
  );
}

/**
 * Live views (decision 004): mounted once in the signed-in layout, subscribes to events.onEvent over
 * the WebSocket and refetches what each event changed, so the bell, the task cards and every
 * approval or completion status update without a reload. When the subscription starts (also
 * after a reconnect) everything live is refetched once, covering the moments before it ran; a
 * reconnect resumes after the last event received, so none is missed. A 'user.deactivated' or
 * 'session.ended' event (decision 012) or an UNAUTHORIZED end drops the session (the guard then shows /signin); any other
 * failure subscribes again after RETRY_MS.
 */
export function LiveEvents() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const staleKeys = useStaleKeys();
  const applyEvent = useApplyEvent();

  const subscription = useSubscription(
    trpc.events.onEvent.subscriptionOptions(
      {},
      {
        enabled: Boolean(session?.token),
        onStarted: () => {
          for (const queryKey of staleKeys(null)) void queryClient.invalidateQueries({ queryKey });
        },
        onData: ({ data }) => {
          if (data.kind === "user.deactivated" || data.kind === "session.ended") writeSession(null);
          else applyEvent(data);
        },
        onError: (error) => {
          if (error.data?.code === "UNAUTHORIZED") writeSession(null);
          else console.error("Live updates failed", error);
        },
      },
    ),
  );

  const { status, error, reset } = subscription;
  const unauthorized = error?.data?.code === "UNAUTHORIZED";
  useEffect(() => {
    if (status !== "error" || unauthorized) return;
    const timer = window.setTimeout(reset, RETRY_MS);
    return () => window.clearTimeout(timer);
  }, [reset, status, unauthorized]);

  return null;
}
