import { z } from "zod";
import {
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKEN_NAME_REQUIRED,
  API_TOKEN_NAME_TOO_LONG,
  API_TOKEN_SCOPES,
} from "@tafsiri/domain";
import { ZId } from "./common";

/** Decision 036: a new API token's name, scope and expiry (an ISO time, or null: never, admins only). */
export const ZCreateApiTokenInput = z.object({
  name: z
    .string({ error: API_TOKEN_NAME_REQUIRED })
    .trim()
    .min(1, API_TOKEN_NAME_REQUIRED)
    .max(API_TOKEN_NAME_MAX_LENGTH, API_TOKEN_NAME_TOO_LONG),
  scope: z.enum(API_TOKEN_SCOPES, { message: "The scope is 'read' or 'write'." }),
  expiresAt: z.iso.datetime({ offset: true, message: "The expiry must be a date and time." }).nullable(),
});

const ZApiTokenView = z.object({
  id: z.string(),
  owner: z.object({ id: z.string(), username: z.string() }),
  name: z.string(),
  hint: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
  state: z.enum(["active", "expired", "revoked"]),
});

export const ZCreatedApiToken = z.object({ token: z.string(), view: ZApiTokenView, message: z.string() });
export const ZOwnApiTokens = z.object({ tokens: z.array(ZApiTokenView) });
export const ZApiTokenPageInput = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  limit: z.number().int().min(1).max(100).default(20),
});
export const ZApiTokenPage = z.object({ tokens: z.array(ZApiTokenView), total: z.number() });
export const ZApiTokenIdInput = z.object({ tokenId: ZId });
