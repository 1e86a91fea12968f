import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { TextField } from "#web/components/field";
import { formatUgx } from "#web/features/dashboard/lib/format";
import { StatsProblem } from "./stats-problem";

/** The number typed into a rate field, or undefined when empty (the server then keeps that rate). */
function typedRate(value: string): number | undefined {
  const trimmed = value.trim();
  return trimmed === "" ? undefined : Number(trimmed);
}

/** The three rate fields of the edit form, in order; the per-minute rate may be 0 (none). */
const RATE_FIELDS = [
  { key: "transcript", id: "dash-rate-transcript", label: "Transcript rate (UGX)", min: 1 },
  { key: "recording", id: "dash-rate-recording", label: "Recording rate (UGX)", min: 1 },
  { key: "audioMinute", id: "dash-rate-audio-minute", label: "Rate per audio minute (UGX, 0 = none)", min: 0 },
] as const;

/**
 * The payment rates above the Team Engagement Report (`statistics.rates`, whole UGX per approved
 * transcript, per approved recording and, optionally, per minute of approved audio; 0 means
 * payment by item only) with an in-place edit: 'Edit rates' shows three number fields with
 * Save (disabled while saving) and Cancel. Saving calls `statistics.setRates`, toasts the
 * server's message either way; the new rates show at once and the report is refetched, so payments follow.
 */
export function PaymentRates() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rates = useQuery({
    ...trpc.statistics.rates.queryOptions(),
    meta: { errorMessage: "Payment rates could not be loaded" },
  });
  const [draft, setDraft] = useState<{ transcript: string; recording: string; audioMinute: string } | null>(null);

  const save = useMutation(
    trpc.statistics.setRates.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(trpc.statistics.rates.queryKey(), result.rates);
        toast.success(result.message);
        setDraft(null);
        await Promise.all([
          queryClient.invalidateQueries(trpc.statistics.rates.pathFilter()),
          queryClient.invalidateQueries(trpc.statistics.teamReport.pathFilter()),
        ]);
      },
      onError: (error) => toast.error("Rates not saved", { description: errorMessage(error) }),
    }),
  );

  if (!rates.data) {
    if (rates.isError) return <StatsProblem onRetry={() => void rates.refetch()} />;
    return <p className="dash-rates muted">Loading payment rates…</p>;
  }

  if (!draft) {
    return (
      <div className="dash-rates" role="group" aria-label="Payment rates">
        <p className="dash-rate">
          <span className="dash-rate-label">Transcript rate</span>{" "}
          <span className="dash-rate-value">{formatUgx(rates.data.transcript)}</span>
          <span className="muted"> per approved transcript</span>
        </p>
        <p className="dash-rate">
          <span className="dash-rate-label">Recording rate</span>{" "}
          <span className="dash-rate-value">{formatUgx(rates.data.recording)}</span>
          <span className="muted"> per approved recording</span>
        </p>
        <p className="dash-rate">
          <span className="dash-rate-label">Audio minute rate</span>{" "}
          <span className="dash-rate-value">{formatUgx(rates.data.audioMinute)}</span>
          <span className="muted">
            {rates.data.audioMinute > 0 ? " per minute of approved audio" : " per minute of approved audio (not used)"}
          </span>
        </p>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            setDraft({
              transcript: String(rates.data.transcript),
              recording: String(rates.data.recording),
              audioMinute: String(rates.data.audioMinute),
            })
          }
        >
          Edit rates
        </button>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      transcript: typedRate(draft.transcript),
      recording: typedRate(draft.recording),
      audioMinute: typedRate(draft.audioMinute),
    });
  };

  return (
    <form className="dash-rates dash-rates-form" aria-label="Edit payment rates" onSubmit={submit}>
      {RATE_FIELDS.map(({ key, id, label, min }) => (
        <TextField
          key={key}
          id={id}
          label={label}
          className="dash-rate-input"
          type="number"
          inputMode="numeric"
          min={min}
          step={1}
          value={draft[key]}
          onChange={(value) => setDraft({ ...draft, [key]: value })}
        />
      ))}
      <div className="dash-rates-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
        <button type="button" className="btn btn-sm" onClick={() => setDraft(null)} disabled={save.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
