import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { RestOptions } from "../rest";
import { callerFor, sendResult } from "../../lib/rest-helpers";

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

/** SPEC §7.1 /auth paths: login, register, staff. */
export const authRoutes: FastifyPluginAsync<RestOptions> = async (app, { deps }) => {
  app.post("/auth/login", async (req, reply) => {
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
};
