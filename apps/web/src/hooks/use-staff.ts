import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { useErrorToast } from "./use-error-toast";

/** Active staff members (id, username) for the assign and reassign choices; toasts 'Failed to load staff.' (SPEC §8). */
export function useStaff() {
  const trpc = useTRPC();
  const query = useQuery(trpc.accounts.staff.queryOptions());
  useErrorToast(query.error, () => "Failed to load staff.");
  return query;
}
