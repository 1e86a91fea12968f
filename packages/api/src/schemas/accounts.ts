import { z } from "zod";
import { ROLES } from "@tafsiri/db";
import { SECOND_FACTOR_MALFORMED_CODE } from "@tafsiri/domain";
import { UNKNOWN_ID, ZId } from "./common";

/** 400 for an account change that names no user. */
export const USER_ID_REQUIRED = "A user id is required.";

export const ZLoginInput = z.object({
  email: z.string({ error: "Email is required" }).trim().min(1, "Email is required"),
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  /** Decision 038: the authenticator app's code or a recovery code, for an account with a second factor. */
  otp: z.string().max(32, SECOND_FACTOR_MALFORMED_CODE).optional(),
});

/** SPEC §2.5: the e-mail a reset link is asked for ('Email is required'). */
export const ZRequestPasswordResetInput = z.object({
  email: z.string({ error: "Email is required" }).trim().min(1, "Email is required").max(320),
});
/** The link's token and the new password. */
export const ZResetPasswordInput = z.object({
  token: z.string({ error: "This reset link is not valid." }).min(1, "This reset link is not valid.").max(200),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1024),
});
/** SPEC §7.1 GET /auth/passwordreset/{email}: `{ status, message }`. */
export const ZPasswordResetAnswer = z.object({ status: z.literal("success"), message: z.string() });

export const ZPublicUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  active: z.boolean(),
  image: z.string().nullable(),
});
/** An account created or edited, and the SPEC §8 sentence that says so. */
export const ZAccountSaved = ZPublicUser.extend({ message: z.string() });
export type PublicUser = z.infer<typeof ZPublicUser>;

export const ZLoginOutput = z.object({ token: z.string(), user: ZPublicUser });

export const ZRegisterInput = z.object({
  username: z.string({ error: "Username is required" }).trim().min(1, "Username is required"),
  email: z.string({ error: "Email is required" }).trim().min(1, "Email is required").email("Email is invalid"),
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  role: z.enum(ROLES, { message: "Role is required" }),
  adminPassword: z.string({ error: "Admin password is required" }).min(1, "Admin password is required"),
});
export type RegisterInput = z.infer<typeof ZRegisterInput>;

export const ZStaffMember = z.object({ id: z.string(), username: z.string() });
export type StaffMember = z.infer<typeof ZStaffMember>;

/** SPEC §2.10: an admin activates or deactivates an account. */
export const ZSetActiveInput = z.object({ userId: ZId, active: z.boolean() });
export type SetActiveInput = z.infer<typeof ZSetActiveInput>;
/** What activating or deactivating an account says (SPEC §2.10). */
export const ZSetActiveOutput = z.object({ message: z.string() });

/** 'Sign out everywhere' for one user (admin; decision 012). */
export const ZEndSessionsInput = z
  .object({
    userId: z
      .string({ error: (issue) => (issue.input === undefined ? USER_ID_REQUIRED : UNKNOWN_ID) })
      .uuid(UNKNOWN_ID),
  })
  .meta({ examples: [{ userId: "5f2c9a1e-7b3d-4e6f-8a0c-1d2e3f4a5b6c" }] });
/** What 'Sign out everywhere' says (decision 012). */
export const ZEndSessionsOutput = z
  .object({ message: z.string() })
  .meta({ examples: [{ message: "amina has been signed out everywhere." }] });

/** A renewed session token and when it expires (ISO time; decision 012). */
export const ZRenewedSession = z
  .object({ token: z.string(), expiresAt: z.string() })
  .meta({ examples: [{ token: "eyJhbGciOiJIUzI1NiJ9.e30.sig", expiresAt: "2026-12-23T09:30:00.000Z" }] });

/** SPEC §2.10: the Accounts page's filter (role and/or active); left out, every user. */
export const ZListAccountsInput = z
  .object({ role: z.enum(ROLES).optional(), active: z.boolean().optional() })
  .optional()
  .default({});
export type ListAccountsInput = z.infer<typeof ZListAccountsInput>;

/** SPEC §7.1 GET /auth/profile/{id}: whose profile. */
export const ZProfileInput = z.object({ userId: ZId });

/**
 * SPEC §2.10, §5: an admin edits an account. Same rules as create, but the password is optional
 * (empty means unchanged) and checked only when given.
 */
export const ZEditAccountInput = z.object({
  userId: ZId,
  username: ZRegisterInput.shape.username,
  email: ZRegisterInput.shape.email,
  password: z.string().optional(),
  role: ZRegisterInput.shape.role,
  adminPassword: ZRegisterInput.shape.adminPassword,
});
export type EditAccountInput = z.infer<typeof ZEditAccountInput>;
