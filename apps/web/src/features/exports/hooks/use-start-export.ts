import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/**
 * Starts a dataset export (exports.create) and refetches the list of exports, so
 * the new one shows at once (its progress then follows the 'export.changed' events). `onStarted`
 * runs after it started, e.g. to show the list's first page.
 */
export function useStartExport(onStarted: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.exports.create.mutationOptions({
      onSuccess: async () => {
        onStarted();
        await queryClient.invalidateQueries({ queryKey: trpc.exports.pathKey() });
      },
    }),
  );
}
