import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@tafsiri/api";
import { readSession, writeSession } from "./session";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, error) => !(error instanceof TRPCClientError && error.data?.httpStatus < 500) && count < 2,
      },
    },
  });
}

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: "/trpc",
        headers: () => {
          const token = readSession()?.token;
          return token ? { Authorization: `Bearer ${token}` } : {};
        },
        fetch: async (url, init) => {
          const res = await fetch(url, init);
          // An expired or revoked token: drop the session so the route guard sends the user to /signin.
          if (res.status === 401 && readSession()) writeSession(null);
          return res;
        },
      }),
    ],
  });
}

/** The message to show for a failed call: the server's, or the spec's connection message. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    if (!error.data && /fetch|network/i.test(error.message)) return "Cannot connect to the server. Please try again later.";
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return "An unexpected error occurred. Please try again.";
}
