import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/** Returns a function that refetches every audio and task list after a change (upload, assign, delete…). */
export function useInvalidateAudios(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries(trpc.audios.pathFilter()),
      queryClient.invalidateQueries(trpc.tasks.pathFilter()),
    ]);
  };
}
