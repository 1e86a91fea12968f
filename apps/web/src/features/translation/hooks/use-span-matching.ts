import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { spanProblem, type SegmentSpan } from "@tafsiri/domain";
import { useSession } from "#web/hooks/use-session";
import { sourceKey } from "#web/lib/source-key";
import { errorMessage, useTRPC, useTRPCClient } from "#web/lib/trpc";

/** Spans being matched to one recording (its file's key), with the recording's length, ms. */
interface Draft {
  recordingKey: string;
  recordingDurationMs: number;
  spans: SegmentSpan[];
  /** Whether these are the spans the server stored last (confirmed). */
  confirmed: boolean;
}

/** How far a nudge key moves a time, ms: the arrow keys, and with Shift. */
export const NUDGE_MS = 50;
export const BIG_NUDGE_MS = 500;

/**
 * Keeps span `index` of `spans` in order after its start or end moved to `startMs`/`endMs`: not
 * before the previous span's end, not past the next one's start or the recording's end, at least
 * 1 ms long. Returns a new list (a new one even when nothing changed, so the waveform's regions go
 * back to the kept times).
 */
function moveSpan(spans: readonly SegmentSpan[], index: number, startMs: number, endMs: number, durationMs: number) {
  const floor = index === 0 ? 0 : spans[index - 1]!.endMs;
  const ceiling = index === spans.length - 1 ? durationMs : spans[index + 1]!.startMs;
  const start = Math.min(Math.max(Math.round(startMs), floor), ceiling - 1);
  const end = Math.max(Math.min(Math.round(endMs), ceiling), start + 1);
  return spans.map((span, i) => (i === index ? { ...span, startMs: start, endMs: end } : span));
}

/**
 * SPEC §2.13, decision 035: matching a whole uploaded translated recording to the grid rows. The
 * audio's current recording (recordings.get), its rows (translation.segments) and the spans stored
 * for the recording (translation.takes); `needed` while the recording has no span for every row.
 * `propose` asks the server's voice activity detector (translation.proposeSpans), `move` changes a
 * span (kept in order by moveSpan), `confirm` stores them (translation.confirmSpans, a toast on
 * success). A new recording drops the spans of the previous one.
 */
export function useSpanMatching(audioId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const recording = useQuery(trpc.recordings.get.queryOptions({ audioId }));
  const grid = useQuery(trpc.translation.segments.queryOptions({ audioId }, { refetchOnWindowFocus: false }));
  const takes = useQuery(trpc.translation.takes.queryOptions({ audioId }, { refetchOnWindowFocus: false }));
  const url = recording.data?.url ?? null;
  const recordingKey = url ? sourceKey(url) : null;
  const [draft, setDraft] = useState<Draft | null>(null);
  const isStaff = useSession()?.role === "Staff";

  // A new recording (an upload, or one made from the takes): its spans are asked for again.
  useEffect(() => {
    if (recordingKey !== null)
      void queryClient.invalidateQueries({ queryKey: trpc.translation.takes.queryKey({ audioId }) });
  }, [recordingKey, queryClient, trpc, audioId]);
  const takesKey = trpc.translation.takes.queryKey({ audioId });

  const rows = grid.data?.segments ?? [];
  const stored = takes.data?.spans ?? [];
  const current = draft !== null && draft.recordingKey === recordingKey ? draft : null;
  const needed =
    recordingKey !== null && rows.length > 0 && rows.some((row) => !stored.some((s) => s.segmentId === row.id));

  const propose = useMutation({
    mutationFn: () => client.translation.proposeSpans.query({ audioId }),
    onSuccess: (answer) => {
      if (recordingKey === null) return;
      setDraft({ recordingKey, ...answer, confirmed: false });
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  const confirm = useMutation(
    trpc.translation.confirmSpans.mutationOptions({
      onSuccess: (answer) => {
        toast.success(answer.message);
        setDraft((d) => (d ? { ...d, confirmed: true } : d));
      },
      onError: (error) => toast.error(errorMessage(error)),
      onSettled: () => queryClient.invalidateQueries({ queryKey: takesKey }),
    }),
  );

  const move = (index: number, startMs: number, endMs: number) =>
    setDraft((d) =>
      d ? { ...d, confirmed: false, spans: moveSpan(d.spans, index, startMs, endMs, d.recordingDurationMs) } : d,
    );
  const problem = current
    ? spanProblem(
        rows.map((r) => r.id),
        current.spans,
        current.recordingDurationMs,
      )
    : null;
  return {
    recording: recording.data ?? null,
    rows,
    needed,
    /** Whether the caller matches: staff (the one who uploaded), while the recording is not Approved. */
    editable: isStaff && recording.data !== undefined && recording.data.status !== "Approved",
    draft: current,
    problem,
    propose,
    move,
    confirm: () => {
      if (current) confirm.mutate({ audioId, spans: current.spans });
    },
    /** Whether the stored spans were confirmed by staff (not made from the takes), so they may be edited again. */
    confirmedStored: stored.length > 0 && stored.every((s) => s.origin === "confirmed"),
    /** Opens the stored spans for editing (the recording's length: its waveform's, else the last span's end). */
    editStored: () => {
      if (recordingKey === null || stored.length === 0) return;
      const known = recording.data?.waveform?.durationSeconds;
      const lastEnd = Math.max(...stored.map((s) => s.endMs));
      setDraft({
        recordingKey,
        recordingDurationMs: known ? Math.max(Math.floor(known * 1000), lastEnd) : lastEnd,
        spans: stored.map(({ segmentId, startMs, endMs }) => ({ segmentId, startMs, endMs })),
        confirmed: true,
      });
    },
    saving: confirm.isPending,
  };
}
