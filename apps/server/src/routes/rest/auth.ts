import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { RestOptions } from "../rest";
import { callerAs, callerFor, requireUser, restError, sendFailure, sendResult, stringField } from "../../lib/rest-helpers";
import { signInAllowed, TOO_MANY_SIGN_INS } from "../../lib/sign-in-limit";

const ZRegisterBody = z.object({
  username: z.string().optional().default(""),
  email: z.string().optional().default(""),
  password: z.string().optional().default(""),
  role: z.string().optional(),
  adminpassword: z.string().optional().default(""),
  adminEmail: z.string().optional(),
});

/** `_id`-shaped user for REST answers. */
function restUser(u: { id: string; username: string; email: string; role: string; active: boolean; image: string | null }) {
  return { _id: u.id, username: u.username, email: u.email, role: u.role, active: u.active, image: u.image };
}

export const USER_ID_REQUIRED = "A user id is required.";
export const STATUS_REQUIRED = "Status must be activate or deactivate.";

/**
 * SPEC §7.1 account paths: /auth login (rate-limited per IP, 429 past the limit), register, staff,
 * and POST /api/update-status.
 */
export const authRoutes: FastifyPluginAsync<RestOptions> = async (app, { deps }) => {
  app.post("/auth/login", async (req, reply) => {
    if (!(await signInAllowed(app, req, reply))) return sendFailure(reply, 429, TOO_MANY_SIGN_INS);
    const body = (req.body ?? {}) as { email?: unknown; password?: unknown };
    return sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const { token, user } = await caller.accounts.login({
        email: typeof body.email === "string" ? body.email : "",
        password: typeof body.password === "string" ? body.password : "",
      });
      return { status: "success", success: true, token, user: { ...restUser(user), token } };
    });
  });

  app.post("/auth/register", async (req, reply) => {
    const parsed = ZRegisterBody.safeParse(req.body ?? {});
    if (!parsed.success) return reply.code(400).send({ status: "failed", success: false, message: "Invalid request body." });
    const b = parsed.data;
    return sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const user = await caller.accounts.register({
        username: b.username,
        email: b.email,
        password: b.password,
        role: (b.role ?? "") as "Admin" | "Staff",
        adminPassword: b.adminpassword,
      });
      return { status: "success", success: true, message: `Account for ${user.username} has been created successfully`, user: restUser(user) };
    });
  });

  app.get("/auth/staff", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const staff = await caller.accounts.staff();
      return staff.map((s) => ({ _id: s.id, username: s.username }));
    }),
  );

  /**
   * POST /api/update-status { userId, status: 'activate' | 'deactivate' } → { status, success,
   * message } (admin; SPEC §2.10). The original sent no user id (ARCHITECTURE): without one, or
   * with another status, 400 with a message. Deactivation closes that user's live connections.
   */
  app.post("/api/update-status", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerAs(deps, await requireUser(deps, req));
      const userId = stringField(req.body, "userId");
      const status = stringField(req.body, "status");
      if (userId === "") throw restError("BAD_REQUEST", USER_ID_REQUIRED);
      if (status !== "activate" && status !== "deactivate") throw restError("BAD_REQUEST", STATUS_REQUIRED);
      await caller.accounts.setActive({ userId, active: status === "activate" });
      const done = status === "activate" ? "activated" : "deactivated";
      return { status: "success", success: true, message: `Account ${done} successfully.` };
    }),
  );
};
