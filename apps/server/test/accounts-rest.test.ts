import { afterAll, describe, expect, it } from "vitest";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { appWithUsers, failed } from "./fixtures/app-harness";

// SPEC §2.10, §7.1: GET /auth/users, GET /auth/profile/{id},
// PUT /auth/editprofile, and the rules POST /auth/register and POST /api/update-status share with
// them. Every answer is checked against the OpenAPI document by the harness.

const { h, admin, staffA, staffB, adminToken, tokenA } = await appWithUsers();
afterAll(() => h.close());

const PUBLIC_KEYS = ["_id", "active", "email", "image", "role", "username"];
const STRONG = "Edit3d!pass";

/** The stored row of a user (to show a refused request changed nothing). */
const row = (id: string) => h.deps.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("GET /auth/users", () => {
  it("lists every user, active and inactive, as { _id, username, email, role, active, image }", async () => {
    const off = await h.call("POST", "/api/update-status", adminToken, { userId: staffB.id, status: "deactivate" });
    expect(off.statusCode, off.body).toBe(200);
    const res = await h.call("GET", "/auth/users", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    const users = res.json<Array<Record<string, unknown>>>();
    for (const u of users) expect(Object.keys(u).sort()).toEqual(PUBLIC_KEYS);
    expect(users).toEqual(
      expect.arrayContaining([
        { _id: staffB.id, username: staffB.username, email: staffB.email, role: "Staff", active: false, image: null },
        { _id: admin.id, username: admin.username, email: admin.email, role: "Admin", active: true, image: null },
      ]),
    );
    expect(res.body).not.toMatch(/hash|\$argon|\$2[aby]\$/i);
    await h.call("POST", "/api/update-status", adminToken, { userId: staffB.id, status: "activate" });
  });

  it("401 without a session, 403 for staff", async () => {
    expect((await h.call("GET", "/auth/users", null)).statusCode).toBe(401);
    const staff = await h.call("GET", "/auth/users", tokenA);
    expect(staff.statusCode).toBe(403);
    expect(staff.json()).toEqual(failed("Only administrators may do this."));
  });
});

describe("GET /auth/profile/{id}", () => {
  it("answers { user } to the user and to an admin", async () => {
    const own = await h.call("GET", `/auth/profile/${staffA.id}`, tokenA);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual({
      user: {
        _id: staffA.id,
        username: staffA.username,
        email: staffA.email,
        role: "Staff",
        active: true,
        image: null,
      },
    });
    const byAdmin = await h.call("GET", `/auth/profile/${staffA.id}`, adminToken);
    expect(byAdmin.json()).toEqual(own.json());
  });

  it("403 for another user's profile, 404 unknown, 400 malformed, 401 anonymous", async () => {
    const other = await h.call("GET", `/auth/profile/${staffB.id}`, tokenA);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(failed("You may only view your own profile."));
    const unknown = await h.call("GET", "/auth/profile/00000000-0000-4000-8000-000000000000", adminToken);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(failed("User not found."));
    const malformed = await h.call("GET", "/auth/profile/not-an-id", adminToken);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual(failed("Unknown id."));
    expect((await h.call("GET", `/auth/profile/${staffA.id}`, null)).statusCode).toBe(401);
  });
});

describe("PUT /auth/editprofile", () => {
  const body = (over: Record<string, unknown> = {}) => ({
    userId: staffA.id,
    username: staffA.username,
    email: staffA.email,
    role: "Staff",
    adminpassword: TEST_PASSWORD,
    adminEmail: admin.email,
    ...over,
  });

  it("400 'A user id is required.' without userId, also for an empty body", async () => {
    for (const sent of [{}, body({ userId: undefined })]) {
      const res = await h.call("PUT", "/auth/editprofile", adminToken, sent);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(failed("A user id is required."));
    }
    const malformed = await h.call("PUT", "/auth/editprofile", adminToken, body({ userId: "x" }));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual(failed("Unknown id."));
  });

  it("403 for a staff caller making themselves Admin, and nothing changes", async () => {
    const before = await row(staffA.id);
    const res = await h.call("PUT", "/auth/editprofile", tokenA, body({ role: "Admin", username: "sneaky" }));
    expect(res.statusCode).toBe(403);
    expect(await row(staffA.id)).toEqual(before);
  });

  it("401 'Admin password is incorrect.', 400 weak password, 409 taken email or username; nothing changes", async () => {
    const before = await row(staffA.id);
    const wrong = await h.call("PUT", "/auth/editprofile", adminToken, body({ adminpassword: "Wrong!pass1" }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(failed("Admin password is incorrect."));
    const weak = await h.call("PUT", "/auth/editprofile", adminToken, body({ password: "short" }));
    expect(weak.statusCode).toBe(400);
    expect(weak.json<{ message: string }>().message).toMatch(/^Password is weak\./);
    const email = await h.call("PUT", "/auth/editprofile", adminToken, body({ email: staffB.email.toUpperCase() }));
    expect(email.statusCode).toBe(409);
    expect(email.json()).toEqual(failed("A user with this email already exists."));
    const name = await h.call("PUT", "/auth/editprofile", adminToken, body({ username: staffB.username }));
    expect(name.statusCode).toBe(409);
    const missing = await h.call("PUT", "/auth/editprofile", adminToken, body({ username: "" }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(failed("Username is required"));
    expect(await row(staffA.id)).toEqual(before);
  });

  it("409 for demoting the last active admin", async () => {
    const res = await h.call(
      "PUT",
      "/auth/editprofile",
      adminToken,
      body({ userId: admin.id, username: admin.username, email: admin.email, role: "Staff" }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(failed("The last active administrator cannot be made Staff."));
  });

  it("edits the account; a given password is set and the old one stops working", async () => {
    const res = await h.call(
      "PUT",
      "/auth/editprofile",
      adminToken,
      body({ username: "rest-edited", email: "Rest-Edited@Example.test", password: STRONG }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: "success",
      success: true,
      message: "Account for rest-edited has been edited successfully",
      user: {
        _id: staffA.id,
        username: "rest-edited",
        email: "rest-edited@example.test",
        role: "Staff",
        active: true,
        image: null,
      },
    });
    const login = await h.call("POST", "/auth/login", null, { email: "rest-edited@example.test", password: STRONG });
    expect(login.statusCode).toBe(200);
    const old = await h.call("POST", "/auth/login", null, {
      email: "rest-edited@example.test",
      password: TEST_PASSWORD,
    });
    expect(old.statusCode).toBe(401);
  });
});

describe("POST /auth/register and POST /api/update-status share the rules", () => {
  it("register: 401 wrong admin password, 409 email in other case", async () => {
    const b = {
      username: "reg-rule",
      email: "reg-rule@example.test",
      password: STRONG,
      role: "Staff",
      adminpassword: TEST_PASSWORD,
      adminEmail: admin.email,
    };
    const wrong = await h.call("POST", "/auth/register", adminToken, { ...b, adminpassword: "no" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(failed("Admin password is incorrect."));
    const dup = await h.call("POST", "/auth/register", adminToken, { ...b, email: staffB.email.toUpperCase() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual(failed("A user with this email already exists."));
  });

  it("update-status: the last active admin cannot be deactivated (409)", async () => {
    const second = await h.createUser("Admin");
    const secondToken = await h.token(second);
    const ok = await h.call("POST", "/api/update-status", secondToken, { userId: admin.id, status: "deactivate" });
    expect(ok.statusCode, ok.body).toBe(200);
    // `second` is now the only active admin; deactivating themselves is refused either way.
    const self = await h.call("POST", "/api/update-status", secondToken, { userId: second.id, status: "deactivate" });
    expect(self.statusCode).toBe(400);
    const back = await h.call("POST", "/api/update-status", secondToken, { userId: admin.id, status: "activate" });
    expect(back.statusCode).toBe(200);
  });
});
