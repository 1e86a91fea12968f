import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { readSession } from "#web/lib/session";
import { errorMessage, useTRPC } from "#web/lib/trpc";

/** The REST answer of `POST /api/translation/takes/{segmentId}`. */
interface TakeAnswer {
  success?: boolean;
  message?: string;
}

/**
 * Sends `file` as the take of grid row `segmentId` (`POST /api/translation/takes/{segmentId}`,
 * multipart, decision 035). Resolves when stored; rejects with the server's message.
 */
async function sendTake(segmentId: string, file: File): Promise<void> {
  const form = new FormData();
  form.append("file", file, file.name);
  const token = readSession()?.token;
  const res = await fetch(`/api/translation/takes/${segmentId}`, {
    method: "POST",
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const body = (await res.json().catch(() => ({}))) as TakeAnswer;
  if (!res.ok) throw new Error(body.message ?? "The take could not be saved. Try again.");
}

/**
 * Decision 035, oral translation by segment: an audio's takes and their checks, and the calls
 * that change them (store, remove, make the translated recording), each refreshing the takes.
 */
export function useTakes(audioId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const takesKey = trpc.translation.takes.queryKey({ audioId });
  const takes = useQuery(trpc.translation.takes.queryOptions({ audioId }, { refetchOnWindowFocus: false }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: takesKey });
  const store = useMutation({
    mutationFn: (input: { segmentId: string; file: File; number: number }) => sendTake(input.segmentId, input.file),
    onSuccess: (_, input) => toast.success(`Take saved for segment ${input.number}.`),
    onError: (error) => toast.error(error.message),
    onSettled: refresh,
  });
  const remove = useMutation(
    trpc.translation.removeTake.mutationOptions({
      onSuccess: (out) => toast.success(out.message),
      onError: (error) => toast.error(errorMessage(error)),
      onSettled: refresh,
    }),
  );
  const assemble = useMutation(
    trpc.translation.assembleTakes.mutationOptions({
      onSuccess: (out) =>
        toast.success(`${out.message} The recording lasts ${(out.durationMs / 60_000).toFixed(1)} minutes.`),
      onError: (error) => toast.error(errorMessage(error)),
      onSettled: () => {
        void refresh();
        void queryClient.invalidateQueries({ queryKey: trpc.recordings.get.queryKey({ audioId }) });
      },
    }),
  );
  return { takes, store, remove, assemble };
}
