import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  AppError,
  RESET_REQUESTED,
  USER_ID_REQUIRED,
  ZLoginInput,
  ZPasswordResetAnswer,
  ZRegisterInput,
} from "@tafsiri/api";
import type { RestOptions } from "./options";
import { DONE, ZDoneFields, ZPathId, ZRestDone, answers } from "./shapes/common";
import { EXAMPLE_USER, ZRestUser, restUser } from "./shapes/accounts";
import { signInAllowed, TOO_MANY_SIGN_INS } from "../../plugins/sign-in-limit";

const STATUS_REQUIRED = "Status must be activate or deactivate.";

const ZLoginBody = ZLoginInput.meta({ examples: [{ email: "amina@example.org", password: "Str0ng-pass!" }] });

const ZLoginAnswer = z
  .object({ ...ZDoneFields, token: z.string(), user: ZRestUser.extend({ token: z.string() }) })
  .meta({
    examples: [
      {
        ...DONE,
        token: "eyJhbGciOiJIUzI1NiJ9.e30.sig",
        user: { ...EXAMPLE_USER, token: "eyJhbGciOiJIUzI1NiJ9.e30.sig" },
      },
    ],
  });

/** SPEC §7.1 POST /auth/register body: the spec's field names over the procedure's own field rules. */
const ZRegisterBody = z
  .object({
    username: ZRegisterInput.shape.username,
    email: ZRegisterInput.shape.email,
    password: ZRegisterInput.shape.password,
    role: ZRegisterInput.shape.role,
    adminpassword: ZRegisterInput.shape.adminPassword,
    adminEmail: z.string().optional(),
  })
  .meta({
    examples: [
      {
        username: "amina",
        email: "amina@example.org",
        password: "Str0ng-pass!",
        role: "Staff",
        adminpassword: "Admin-pass1!",
        adminEmail: "admin@example.org",
      },
    ],
  });

const ZRegisterAnswer = ZRestDone.extend({ user: ZRestUser }).meta({
  examples: [{ ...DONE, message: "Account for amina has been created successfully", user: EXAMPLE_USER }],
});

const ZStaffList = z
  .array(z.object({ _id: z.string(), username: z.string() }))
  .meta({ examples: [[{ _id: EXAMPLE_USER._id, username: "amina" }]] });

const ZUpdateStatusBody = z
  .object({
    userId: z.string({ error: USER_ID_REQUIRED }).min(1, USER_ID_REQUIRED),
    status: z.enum(["activate", "deactivate"], { error: STATUS_REQUIRED }),
  })
  .meta({ examples: [{ userId: EXAMPLE_USER._id, status: "deactivate" }] });

const ZUserList = z.array(ZRestUser).meta({ examples: [[EXAMPLE_USER]] });

const ZProfileAnswer = z.object({ user: ZRestUser }).meta({ examples: [{ user: EXAMPLE_USER }] });

/** SPEC §7.1 PUT /auth/editprofile body: the create fields plus `userId`; an empty password leaves it unchanged. */
const ZEditProfileBody = z
  .object({
    userId: z.string({ error: USER_ID_REQUIRED }).min(1, USER_ID_REQUIRED),
    username: ZRegisterInput.shape.username,
    email: ZRegisterInput.shape.email,
    password: z.string().optional(),
    role: ZRegisterInput.shape.role,
    adminpassword: ZRegisterInput.shape.adminPassword,
    adminEmail: z.string().optional(),
  })
  .meta({
    examples: [
      {
        userId: EXAMPLE_USER._id,
        username: "amina",
        email: "amina@example.org",
        role: "Staff",
        adminpassword: "Admin-pass1!",
        adminEmail: "admin@example.org",
      },
    ],
  });

const ZEditProfileAnswer = ZRestDone.extend({ user: ZRestUser }).meta({
  examples: [{ ...DONE, message: "Account for amina has been edited successfully", user: EXAMPLE_USER }],
});

const ZPasswordResetParams = z
  .object({ email: z.string().meta({ examples: ["amina@example.org"] }) })
  .meta({ examples: [{ email: "amina@example.org" }] });

const ZPasswordResetRequested = ZPasswordResetAnswer.meta({
  examples: [{ status: "success", message: RESET_REQUESTED }],
});

const ACCOUNTS = ["Accounts"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** SPEC §7.1 sign-in paths: sign in (rate limited per IP) and ask for a password reset link. */
export const authRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.post(
    "/auth/login",
    {
      schema: {
        summary: "Sign in",
        description:
          "SPEC §2.4, §7.1. Answers a session token (valid SESSION_IDLE_DAYS, 30 days, unless renewed through " +
          "POST /auth/renew) and the user. 400 'Email is required' / 'Password is required', " +
          "401 for a wrong email or password, and 401 'Your account has been deactivated. Contact an administrator.' " +
          "for a deactivated account once its password was right (every other path refuses a deactivated account's " +
          "session with 401 too), " +
          "429 past LOGIN_RATE_LIMIT attempts per IP per minute. " +
          "Decision 038: an account with an authenticator app answers 401 with `reason: 'SECOND_FACTOR_REQUIRED'` " +
          "('Enter the 6-digit code from your authenticator app, or a recovery code.') until the body carries `otp`, " +
          "the app's current code or one of the account's recovery codes (each used once); a wrong, replayed or " +
          "malformed code answers 401 (400 when malformed), and 10 wrong codes in 15 minutes per account or per " +
          "address answer 429 for 15 minutes. Scripts use API tokens rather than signing in.",
        tags: ACCOUNTS,
        security: [],
        body: ZLoginBody,
        response: answers(ZLoginAnswer),
      },
      // Counted before validation, so empty or malformed attempts count too.
      onRequest: async (req, reply) => {
        if (!(await signInAllowed(app, req, reply))) throw new AppError("TOO_MANY_REQUESTS", TOO_MANY_SIGN_INS);
      },
    },
    async (req) => {
      const { token, user } = await req.caller.accounts.login(req.body);
      return { ...DONE, token, user: { ...restUser(user), token } };
    },
  );

  app.get(
    "/auth/passwordreset/:email",
    {
      schema: {
        summary: "Ask for a password reset link",
        description:
          "SPEC §2.5, §7.1. Always answers `{ status: 'success', message }` with the same message, whatever the address " +
          "(nobody learns which e-mails have accounts). For an active account a single-use link to /reset-password/{token}, " +
          "valid 60 minutes, is e-mailed (SMTP_URL; unset: an .eml in DATA_DIR/outbox and the link in the log). " +
          "400 for an address too long to be one, 429 past 5 requests per e-mail or 20 per IP in 15 minutes.",
        tags: ACCOUNTS,
        security: [],
        params: ZPasswordResetParams,
        response: answers(ZPasswordResetRequested),
      },
    },
    async (req) => req.caller.accounts.requestPasswordReset({ email: req.params.email }),
  );
};

/** SPEC §7.1 account paths (admin, but the staff list and profiles): register, list, profile, edit, staff list, activation. */
export const accountRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.post(
    "/auth/register",
    {
      schema: {
        summary: "Create an account (admin)",
        description:
          "SPEC §2.10, §5, §6, §7.1. The admin confirms with their own password (`adminpassword`). 400 with the spec's " +
          "messages ('Username is required', 'Password is weak', ...), 401 without a session or 'Admin password is incorrect.', " +
          "403 for staff, 409 for a taken email (case-insensitive) or username.",
        tags: ACCOUNTS,
        security: BEARER,
        body: ZRegisterBody,
        response: answers(ZRegisterAnswer),
      },
    },
    async (req) => {
      const b = req.body;
      const user = await req.caller.accounts.register({
        username: b.username,
        email: b.email,
        password: b.password,
        role: b.role,
        adminPassword: b.adminpassword,
      });
      return { ...DONE, message: user.message, user: restUser(user) };
    },
  );

  app.get(
    "/auth/users",
    {
      schema: {
        summary: "List accounts (admin)",
        description:
          "SPEC §2.10, §7.1. Every user, active and inactive, by username; never a password hash or token. " +
          "401 without a session, 403 for staff.",
        tags: ACCOUNTS,
        security: BEARER,
        response: answers(ZUserList),
      },
    },
    async (req) => (await req.caller.accounts.list()).map(restUser),
  );

  app.get(
    "/auth/profile/:id",
    {
      schema: {
        summary: "One account's profile",
        description:
          "SPEC §7.1. The user `{id}` for that user or an admin. 400 'Unknown id.' for a malformed id, 401 without " +
          "a session, 403 for another user's profile, 404 'User not found.'.",
        tags: ACCOUNTS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        response: answers(ZProfileAnswer),
      },
    },
    async (req) => ({ user: restUser(await req.caller.accounts.profile({ userId: req.params.id })) }),
  );

  app.put(
    "/auth/editprofile",
    {
      schema: {
        summary: "Edit an account (admin)",
        description:
          "SPEC §2.10, §5, §6, §7.1. `userId` names the account (the original could send an empty body: 400 " +
          "'A user id is required.'); the admin confirms with their own password (`adminpassword`). A password, " +
          "when given, must be Strong and ends that user's older sessions. 400 with the spec's messages or " +
          "'Unknown id.', 401 without a session or 'Admin password is incorrect.', 403 for staff, 404 'User not " +
          "found.', 409 for an email (case-insensitive) or username another user has, or for demoting the last " +
          "active administrator.",
        tags: ACCOUNTS,
        security: BEARER,
        body: ZEditProfileBody,
        response: answers(ZEditProfileAnswer),
      },
    },
    async (req) => {
      const b = req.body;
      const user = await req.caller.accounts.edit({
        userId: b.userId,
        username: b.username,
        email: b.email,
        password: b.password,
        role: b.role,
        adminPassword: b.adminpassword,
      });
      return { ...DONE, message: user.message, user: restUser(user) };
    },
  );

  app.get(
    "/auth/staff",
    {
      schema: {
        summary: "List staff",
        description: "SPEC §2.13, §2.17, §7.1. Active staff members for the dropdowns. 401 without a session.",
        tags: ACCOUNTS,
        security: BEARER,
        response: answers(ZStaffList),
      },
    },
    async (req) => (await req.caller.accounts.staff()).map((s) => ({ _id: s.id, username: s.username })),
  );

  app.post(
    "/api/update-status",
    {
      schema: {
        summary: "Activate or deactivate an account (admin)",
        description:
          "SPEC §2.10, §4, §7.1. The original sent no user id (ARCHITECTURE): `userId` names the account. A deactivated " +
          "user's live connections close at once. 400 without userId or with another status, 401, 403, 404 for an unknown " +
          "user, 409 for deactivating the last active administrator.",
        tags: ACCOUNTS,
        security: BEARER,
        body: ZUpdateStatusBody,
        response: answers(ZRestDone),
      },
    },
    async (req) => {
      const { userId, status } = req.body;
      const { message } = await req.caller.accounts.setActive({ userId, active: status === "activate" });
      return { ...DONE, message };
    },
  );
};
