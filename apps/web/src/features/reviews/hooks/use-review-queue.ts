import { useCallback, useEffect, useEffectEvent, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { RouterInputs, RouterOutputs } from "@tafsiri/api";
import type { SubmissionFilter } from "#web/lib/api-types";
import { useSession } from "#web/hooks/use-session";
import { useTRPC } from "#web/lib/trpc";

/** `submissions.reviewQueue`'s answer (decision 025). */
type ReviewQueuePage = RouterOutputs["submissions"]["reviewQueue"];
/** One submission of review mode. */
export type ReviewItem = NonNullable<ReviewQueuePage["item"]>;
type QueueInput = RouterInputs["submissions"]["reviewQueue"];
type Key = { updatedAt: string; id: string };
type Move = "first" | "next" | "previous";

const OUTPUT_NAMES = { transcript: "the transcript", recording: "the recording" } as const;
const DONE = { approve: "approved", reject: "rejected" } as const;

/**
 * A review of the item shown that another admin made since it was last seen, as a sentence
 * ('admin2 approved the transcript.'), or null.
 */
function othersReview(before: ReviewItem, after: ReviewItem, myId: string | undefined): string | null {
  const sentences: string[] = [];
  for (const output of ["transcript", "recording"] as const) {
    const was = before.latestReviews[output];
    const now = after.latestReviews[output];
    if (!now || now.reviewedAt === was?.reviewedAt || now.reviewer?.id === myId) continue;
    sentences.push(`${now.reviewer?.username ?? "Another admin"} ${DONE[now.action]} ${OUTPUT_NAMES[output]}.`);
  }
  return sentences.length ? sentences.join(" ") : null;
}

/**
 * Review mode's place in the queue of `filter` (decision 025). It holds the key (updatedAt, id)
 * of the item shown and reads the queue 'at' that key, so the item stays on screen while it is
 * reviewed (its updatedAt moves it to the queue's end) and the position and total follow live
 * events. When another admin reviews the item shown, `notice` says who did what (the page shows it
 * in a polite status region) and the queue moves on to the next item. `go` moves first/next/previous and answers
 * whether it landed on an item; past either end it stays and says so in `notice`.
 */
export function useReviewQueue(filter: SubmissionFilter) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const [key, setKey] = useState<Key | null>(null);
  const [notice, setNotice] = useState("");
  const [moving, setMoving] = useState(false);
  const options = useCallback((input: QueueInput) => trpc.submissions.reviewQueue.queryOptions(input), [trpc]);
  const place = useQuery({
    ...options(key ? { filter, move: "at", from: key } : { filter, move: "first" }),
    placeholderData: (previous) => previous,
  });
  const inFilter = key !== null && place.data?.item?.id === key.id;
  // Out of the filter (reviewed meanwhile), the item is read from 'all', where it always is.
  const outside = useQuery({
    ...options({ filter: "all", move: "at", from: key ?? { updatedAt: "1970-01-01T00:00:00Z", id: "" } }),
    enabled: key !== null && place.data !== undefined && !place.isPlaceholderData && !inFilter,
  });
  const [shown, setShown] = useState<ReviewItem | null>(null);
  const [autoMoves, setAutoMoves] = useState(0);
  const [deletedKey, setDeletedKey] = useState<string | null>(null);

  // The first answer ('first') fixes the key (state adjusted while rendering, as React advises
  // for state that follows other state); from then on the queue is read 'at' that key.
  if (key === null && place.data?.item && !place.isPlaceholderData) {
    const item = place.data.item;
    setKey({ updatedAt: item.updatedAt, id: item.id });
    setShown(item);
  }

  // A fresh read of the item shown: another admin's review is said (the status region) and moves on.
  const latest = inFilter ? place.data?.item : outside.data?.item?.id === key?.id ? outside.data?.item : undefined;
  if (latest && shown && latest.id === shown.id && latest !== shown) {
    const said = othersReview(shown, latest, session?._id);
    setShown(latest);
    if (said) {
      setNotice(said);
      setAutoMoves((n) => n + 1);
    }
  }

  // The item shown was deleted meanwhile: 'all' no longer has it.
  if (key !== null && outside.data !== undefined && outside.data.item?.id !== key.id && deletedKey !== key.id) {
    setDeletedKey(key.id);
    setNotice("This submission was deleted meanwhile.");
    setAutoMoves((n) => n + 1);
  }

  const go = useCallback(
    async (move: Move, auto = false): Promise<boolean> => {
      setMoving(true);
      try {
        const page = await queryClient.fetchQuery({
          ...options(key && move !== "first" ? { filter, move, from: key } : { filter, move: "first" }),
          staleTime: 0,
        });
        if (!page.item) {
          if (!auto) {
            const said =
              move === "previous"
                ? "This is the first submission in this filter."
                : "That was the last submission in this filter.";
            setNotice(said);
          }
          return false;
        }
        const next = { updatedAt: page.item.updatedAt, id: page.item.id };
        queryClient.setQueryData(options({ filter, move: "at", from: next }).queryKey, page);
        if (!auto) setNotice("");
        setKey(next);
        setShown(page.item);
        return true;
      } finally {
        setMoving(false);
      }
    },
    [filter, key, options, queryClient],
  );
  const moveOn = useEffectEvent(() => void go("next", true));
  useEffect(() => {
    if (autoMoves === 0) return;
    // After the notice has been rendered (and its status region read out).
    const timer = window.setTimeout(moveOn, 0);
    return () => window.clearTimeout(timer);
  }, [autoMoves]);

  /** Refetches the queue (after a review, a comment). */
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: trpc.submissions.reviewQueue.pathKey() }),
    [queryClient, trpc],
  );

  return {
    /** The item shown (null before the first answer, and when the filter is empty). */
    item: shown,
    /** The item's 1-based place in the filter, null while it is out of the filter (reviewed). */
    position: inFilter ? (place.data?.position ?? null) : null,
    total: place.data?.total ?? 0,
    /** The first answer is pending. */
    loading: place.isPending,
    /** The first answer failed (later failures keep the item shown). */
    error: place.isError && shown === null ? place.error : null,
    /** The filter has nothing to review. */
    empty: place.data !== undefined && !place.isPlaceholderData && key === null && place.data.item === null,
    retry: () => void place.refetch(),
    notice,
    moving,
    go,
    refresh,
  };
}
