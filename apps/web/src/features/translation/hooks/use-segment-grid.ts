import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  blockingFindings,
  checkSegments,
  countTranslated,
  normalizeForMatch,
  type CheckFinding,
  type TranslationSegment,
} from "@tafsiri/domain";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { useRefreshAudioWork } from "#web/hooks/use-refresh-audio-work";

/** How long after the last edit a draft is kept on the server, in ms. */
const DRAFT_DELAY_MS = 1_500;

/** The message of a failed call: the server's, or the connection's (SPEC §7.3). */
function failureText(error: unknown): string {
  return errorMessage(error) || "The server did not answer.";
}

/**
 * Decision 035: an audio's segment grid: its rows as edited here (null while loading), kept on the
 * server as a draft DRAFT_DELAY_MS after the last edit (and before Submit); the checks of the rows
 * (computed from a deferred copy, so typing is not held up), 'N of M translated', and Submit,
 * refused here while an error remains as the server would refuse it.
 */
export function useSegmentGrid(audioId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useRefreshAudioWork();
  const grid = useQuery(trpc.translation.segments.queryOptions({ audioId }, { refetchOnWindowFocus: false }));
  const [rows, setRowsState] = useState<TranslationSegment[] | null>(null);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef<TranslationSegment[] | null>(null);

  useEffect(() => {
    if (grid.data && latest.current === null) {
      latest.current = grid.data.segments;
      setRowsState(grid.data.segments);
    }
  }, [grid.data]);

  const draft = useMutation(trpc.translation.saveDraft.mutationOptions());
  const submitMutation = useMutation(trpc.translation.submit.mutationOptions());

  const flush = useCallback(async (): Promise<boolean> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!dirty.current || !latest.current) return true;
    dirty.current = false;
    try {
      await draft.mutateAsync({ audioId, segments: latest.current });
      setSavedAt(new Date());
      return true;
    } catch (error) {
      dirty.current = true;
      toast.error(`The draft was not saved: ${failureText(error)}`);
      return false;
    }
  }, [audioId, draft]);

  const setRows = useCallback(
    (next: TranslationSegment[]) => {
      latest.current = next;
      dirty.current = true;
      setRowsState(next);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), DRAFT_DELAY_MS);
    },
    [flush],
  );
  // A draft not yet sent goes when the screen closes.
  useEffect(() => () => void flush(), [flush]);

  const data = grid.data;
  const deferredRows = useDeferredValue(rows);
  const findings = useMemo<CheckFinding[]>(() => {
    if (!data || !deferredRows) return [];
    const variants = new Map(
      deferredRows.map((r) => [r.id, data.memoryVariants[normalizeForMatch(r.source)] ?? []] as const),
    );
    return checkSegments(deferredRows, {
      glossary: data.glossary,
      keepChatMarkers: data.keepChatMarkers,
      memoryVariants: variants,
    });
  }, [data, deferredRows]);
  const progress = useMemo(() => countTranslated(rows ?? []), [rows]);

  const submit = useCallback(async () => {
    if (!rows) return;
    const errors = blockingFindings(
      checkSegments(rows, {
        glossary: data?.glossary ?? [],
        keepChatMarkers: data?.keepChatMarkers ?? false,
      }),
    );
    if (errors.length > 0) {
      toast.error(`${new Set(errors.map((e) => e.segmentId)).size} segment(s) must be fixed before submitting.`);
      return;
    }
    if (timer.current) clearTimeout(timer.current);
    dirty.current = false;
    try {
      const answer = await submitMutation.mutateAsync({ audioId, segments: rows });
      toast.success(answer.message);
      setSavedAt(new Date());
    } catch (error) {
      dirty.current = true;
      toast.error(`Error uploading transcript, server error: ${failureText(error)}`);
    } finally {
      refresh();
      void queryClient.invalidateQueries({ queryKey: trpc.translation.segments.queryKey({ audioId }) });
    }
  }, [rows, data, audioId, submitMutation, refresh, queryClient, trpc]);

  return {
    grid,
    rows,
    setRows,
    findings,
    progress,
    savedAt,
    saving: draft.isPending,
    submitting: submitMutation.isPending,
    saveNow: flush,
    submit,
  };
}
