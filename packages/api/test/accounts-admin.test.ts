import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, TEST_PASSWORD, type TestHarness } from "../src/testing/harness";
import type { SessionUser } from "../src/context";

// SPEC §2.10, §5, §6, §7.1: the Accounts page's procedures (list, profile, edit)
// and the rules create and setActive share with them: the admin's own password, unique email
// (case-insensitive) and username, Strong passwords, and never losing the last active admin.

let h: TestHarness;
let admin: SessionUser;
let staff: SessionUser;

const STRONG = "N3w!Strong";

beforeAll(async () => {
  h = await createHarness();
  admin = await h.createUser("Admin", { username: "aa-admin" });
  staff = await h.createUser("Staff", { username: "bb-staff" });
});
afterAll(() => h.close());

/** The user row as stored (hash and password time included). */
const row = (id: string) => h.deps.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** No answer may carry a password hash (or anything but the public fields, and a change's sentence). */
function expectPublic(user: object): void {
  const fields = Object.keys(user).filter((key) => key !== "message");
  expect(fields.sort()).toEqual(["active", "email", "id", "image", "role", "username"]);
}

describe("accounts.list", () => {
  it("lists every user, active and inactive, by username, without hashes", async () => {
    const inactive = await h.createUser("Staff", { username: "cc-inactive" });
    await h.caller(admin).accounts.setActive({ userId: inactive.id, active: false });
    const all = await h.caller(admin).accounts.list();
    for (const u of all) expectPublic(u);
    const names = all.map((u) => u.username);
    expect(names).toEqual([...names].sort());
    expect(all.find((u) => u.id === inactive.id)).toMatchObject({ active: false, role: "Staff" });
    expect(all.find((u) => u.id === admin.id)).toMatchObject({ active: true, role: "Admin", email: admin.email });
  });

  it("filters by role and by active", async () => {
    const staffOnly = await h.caller(admin).accounts.list({ role: "Staff" });
    expect(staffOnly.every((u) => u.role === "Staff")).toBe(true);
    expect(staffOnly.some((u) => u.id === staff.id)).toBe(true);
    const inactive = await h.caller(admin).accounts.list({ active: false });
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.every((u) => !u.active)).toBe(true);
    const activeAdmins = await h.caller(admin).accounts.list({ role: "Admin", active: true });
    expect(activeAdmins.map((u) => u.id)).toContain(admin.id);
    expect(activeAdmins.every((u) => u.role === "Admin" && u.active)).toBe(true);
  });

  it("refuses staff (403) and anonymous callers (401)", async () => {
    await expect(h.caller(staff).accounts.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(null).accounts.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("accounts.profile", () => {
  it("answers the user to themselves and to an admin, without a hash", async () => {
    const own = await h.caller(staff).accounts.profile({ userId: staff.id });
    expectPublic(own);
    expect(own).toMatchObject({ id: staff.id, username: staff.username });
    expect(await h.caller(admin).accounts.profile({ userId: staff.id })).toEqual(own);
  });

  it("refuses another staff member's profile, unknown and malformed ids", async () => {
    const other = await h.createUser("Staff");
    await expect(h.caller(staff).accounts.profile({ userId: other.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You may only view your own profile.",
    });
    await expect(h.caller(staff).accounts.profile({ userId: admin.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      h.caller(admin).accounts.profile({ userId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "User not found." });
    await expect(h.caller(admin).accounts.profile({ userId: "1 or 1=1" })).rejects.toThrow("Unknown id.");
  });
});

describe("accounts.edit", () => {
  let target: SessionUser;
  const base = () => ({
    userId: target.id,
    username: target.username,
    email: target.email,
    role: "Staff" as const,
    adminPassword: TEST_PASSWORD,
  });

  beforeAll(async () => {
    target = await h.createUser("Staff", { username: "dd-target" });
  });

  it("changes username, email and role without touching the password when none is given", async () => {
    const before = await row(target.id);
    const out = await h.caller(admin).accounts.edit({
      ...base(),
      username: "dd-renamed",
      email: "DD-Renamed@Example.test",
      password: "",
    });
    expectPublic(out);
    expect(out).toMatchObject({ id: target.id, username: "dd-renamed", email: "dd-renamed@example.test" });
    const after = await row(target.id);
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.passwordChangedAt).toEqual(before.passwordChangedAt);
    target = { ...target, username: "dd-renamed", email: "dd-renamed@example.test" };
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .selectAll()
      .where("entityId", "=", target.id)
      .where("action", "=", "edit")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: admin.id, entity: "user" });
    expect(JSON.stringify(audit[0]!.detail)).not.toMatch(/hash|N3w/i);
  });

  it("sets a Strong password, which then signs in (and ends older sessions)", async () => {
    await h.caller(admin).accounts.edit({ ...base(), password: STRONG });
    await expect(h.caller(null).accounts.login({ email: target.email, password: STRONG })).resolves.toBeDefined();
    await expect(h.caller(null).accounts.login({ email: target.email, password: TEST_PASSWORD })).rejects.toThrow(
      "Invalid email or password.",
    );
  });

  it("refuses a weak password with the message of SPEC §5, changing nothing", async () => {
    const before = await row(target.id);
    await expect(
      h.caller(admin).accounts.edit({ ...base(), username: "dd-weak", password: "weakpass" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^Password is weak\. Password must/),
    });
    expect(await row(target.id)).toEqual(before);
  });

  it("refuses a wrong admin password (401 'Admin password is incorrect.'), changing nothing", async () => {
    const before = await row(target.id);
    await expect(
      h.caller(admin).accounts.edit({ ...base(), role: "Admin", adminPassword: "Wrong!pass1" }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED", message: "Admin password is incorrect." });
    expect(await row(target.id)).toEqual(before);
  });

  it("refuses another user's email in other case, or username, with 409", async () => {
    await expect(h.caller(admin).accounts.edit({ ...base(), email: staff.email.toUpperCase() })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "A user with this email already exists.",
    });
    await expect(
      h.caller(admin).accounts.edit({ ...base(), username: staff.username.toUpperCase() }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: "A user with this username already exists." });
  });

  it("refuses staff callers: nobody makes themselves Admin", async () => {
    const self = { userId: staff.id, username: staff.username, email: staff.email, adminPassword: TEST_PASSWORD };
    await expect(h.caller(staff).accounts.edit({ ...self, role: "Admin" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await row(staff.id)).role).toBe("Staff");
    await expect(h.caller(null).accounts.edit({ ...self, role: "Admin" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });

  it("refuses malformed and unknown ids and missing fields", async () => {
    await expect(h.caller(admin).accounts.edit({ ...base(), userId: "nope" })).rejects.toThrow("Unknown id.");
    await expect(
      h.caller(admin).accounts.edit({ ...base(), userId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(h.caller(admin).accounts.edit({ ...base(), username: "  " })).rejects.toThrow("Username is required");
    await expect(h.caller(admin).accounts.edit({ ...base(), adminPassword: "" })).rejects.toThrow(
      "Admin password is required",
    );
  });
});

describe("the last active admin", () => {
  it("cannot be demoted nor deactivated; with a second admin, demotion works", async () => {
    const h2 = await createHarness();
    try {
      const only = await h2.createUser("Admin");
      const edit = { userId: only.id, username: only.username, email: only.email, adminPassword: TEST_PASSWORD };
      await expect(h2.caller(only).accounts.edit({ ...edit, role: "Staff" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: "The last active administrator cannot be made Staff.",
      });
      const second = await h2.createUser("Admin");
      await h2.caller(second).accounts.setActive({ userId: only.id, active: false });
      // `second` is now the only active admin: neither demoting nor deactivating them is allowed.
      await expect(
        h2.caller(second).accounts.edit({
          userId: second.id,
          username: second.username,
          email: second.email,
          role: "Staff",
          adminPassword: TEST_PASSWORD,
        }),
      ).rejects.toMatchObject({ code: "CONFLICT" });
      // Editing the inactive admin to Staff is fine: it is not an active admin.
      await expect(h2.caller(second).accounts.edit({ ...edit, role: "Staff" })).resolves.toMatchObject({
        role: "Staff",
      });
      await h2.caller(second).accounts.setActive({ userId: only.id, active: true });
      await h2.caller(second).accounts.edit({ ...edit, role: "Admin" });
      // Two active admins: one may demote the other.
      await expect(
        h2.caller(only).accounts.edit({
          userId: second.id,
          username: second.username,
          email: second.email,
          role: "Staff",
          adminPassword: TEST_PASSWORD,
        }),
      ).resolves.toMatchObject({ role: "Staff" });
    } finally {
      await h2.close();
    }
  });

  it("two admins deactivating each other at once: one of them stays", async () => {
    const h2 = await createHarness();
    try {
      const a = await h2.createUser("Admin");
      const b = await h2.createUser("Admin");
      const results = await Promise.allSettled([
        h2.caller(a).accounts.setActive({ userId: b.id, active: false }),
        h2.caller(b).accounts.setActive({ userId: a.id, active: false }),
      ]);
      const refused = results.filter((r) => r.status === "rejected");
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
        code: "CONFLICT",
        message: "The last active administrator cannot be deactivated.",
      });
      const active = await h2.deps.db
        .selectFrom("users")
        .select("id")
        .where("role", "=", "Admin")
        .where("active", "=", true)
        .execute();
      expect(active).toHaveLength(1);
    } finally {
      await h2.close();
    }
  });
});

describe("accounts.register follows the same rules", () => {
  it("401 for a wrong admin password, 409 for an email taken in other case or a taken username", async () => {
    const input = {
      username: "ee-new",
      email: "ee-new@example.test",
      password: STRONG,
      role: "Staff" as const,
      adminPassword: TEST_PASSWORD,
    };
    await expect(h.caller(admin).accounts.register({ ...input, adminPassword: "x" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: "Admin password is incorrect.",
    });
    await expect(
      h.caller(admin).accounts.register({ ...input, email: staff.email.toUpperCase() }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: "A user with this email already exists." });
    await expect(
      h.caller(admin).accounts.register({ ...input, username: staff.username.toUpperCase() }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: "A user with this username already exists." });
    const created = await h.caller(admin).accounts.register(input);
    expectPublic(created);
  });

  it("two creates of the same email at once: one 409, never a 500", async () => {
    const input = {
      username: "ff-race",
      email: "ff-race@example.test",
      password: STRONG,
      role: "Staff" as const,
      adminPassword: TEST_PASSWORD,
    };
    const results = await Promise.allSettled([
      h.caller(admin).accounts.register(input),
      h.caller(admin).accounts.register({ ...input, username: "ff-race2", email: "FF-RACE@example.test" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "CONFLICT" });
  });
});
