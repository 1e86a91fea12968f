import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/** How often the list is read again while a backup is being written, in ms. */
const RUNNING_REFETCH_MS = 1_500;

/**
 * The Backups page's list (backups.list, decision 027): the archives newest first, the backup
 * being written (`running`) and the last failed one. While one runs the list is read again every
 * 1.5 s, so the new archive shows when whole without a reload.
 */
export function useBackups() {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.backups.list.queryOptions(),
    refetchInterval: (query) => (query.state.data?.running ? RUNNING_REFETCH_MS : false),
    meta: { errorMessage: "Failed to load the backups." },
  });
}

/** The list's data once loaded. */
export type BackupListing = NonNullable<ReturnType<typeof useBackups>["data"]>;

/** 'Back up now' (backups.create): starts a backup and reads the list again, which then shows it running. */
export function useBackUpNow() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.backups.create.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.backups.pathKey() }),
    }),
  );
}

/** Deletes an archive (backups.delete) and reads the list again. */
export function useDeleteBackup() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.backups.delete.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.backups.pathKey() }),
    }),
  );
}

/**
 * Download: asks for the archive's signed link (backups.download, valid 5 minutes) and follows it,
 * so the browser streams the archive to disk (`Content-Disposition: attachment`).
 */
export function useDownloadBackup() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const { url } = await queryClient.fetchQuery({ ...trpc.backups.download.queryOptions({ name }), staleTime: 0 });
      window.location.assign(url);
    },
  });
}
