import { useState, type ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { makeQueryClient, makeTrpcClient, TRPCProvider } from "../lib/trpc";
import { AppToaster } from "../components/app-toaster";
import { LiveAnnouncer } from "../components/live-announcer";

/** Query cache, tRPC client, toasts and screen-reader announcements for the whole app. */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
        <AppToaster />
        <LiveAnnouncer />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
