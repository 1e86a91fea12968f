import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, TEST_PASSWORD, type TestHarness } from "../src/testing/harness";
import type { SessionUser } from "../src/context";

let h: TestHarness;
let admin: SessionUser;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.createUser("Admin");
});
afterAll(() => h.close());

describe("accounts.login", () => {
  it("returns a token and the public user for the right password", async () => {
    const out = await h.caller(null).accounts.login({ email: admin.email.toUpperCase(), password: TEST_PASSWORD });
    expect(out.user).toMatchObject({ id: admin.id, role: "Admin" });
    expect(out.user).not.toHaveProperty("passwordHash");
    expect(out.token.split(".")).toHaveLength(3);
  });

  it("refuses a wrong password with one message for both cases", async () => {
    await expect(h.caller(null).accounts.login({ email: admin.email, password: "nope" })).rejects.toThrow(
      "Invalid email or password.",
    );
    await expect(h.caller(null).accounts.login({ email: "who@x.test", password: "nope" })).rejects.toThrow(
      "Invalid email or password.",
    );
  });

  it("refuses empty fields with the messages of SPEC §5", async () => {
    await expect(h.caller(null).accounts.login({ email: "", password: "x" })).rejects.toThrow("Email is required");
    await expect(h.caller(null).accounts.login({ email: "a@b.c", password: "" })).rejects.toThrow(
      "Password is required",
    );
  });

  it("refuses a deactivated user", async () => {
    const staff = await h.createUser("Staff");
    await h.deps.db.updateTable("users").set({ active: false }).where("id", "=", staff.id).execute();
    await expect(h.caller(null).accounts.login({ email: staff.email, password: TEST_PASSWORD })).rejects.toThrow(
      /deactivated/,
    );
  });
});

describe("accounts.register", () => {
  const input = {
    username: "newstaff",
    email: "newstaff@example.test",
    password: "Str0ng!pass",
    role: "Staff" as const,
    adminPassword: TEST_PASSWORD,
  };

  it("refuses staff and anonymous callers", async () => {
    const staff = await h.createUser("Staff");
    await expect(h.caller(staff).accounts.register(input)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(null).accounts.register(input)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("checks the admin's own password and the password rules", async () => {
    await expect(h.caller(admin).accounts.register({ ...input, adminPassword: "wrong" })).rejects.toThrow(
      "Admin password is incorrect.",
    );
    await expect(h.caller(admin).accounts.register({ ...input, password: "weakpass" })).rejects.toThrow(
      /^Password is weak/,
    );
    const count = await h.deps.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("email", "=", input.email)
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(0);
  });

  it("creates the account, which can then sign in", async () => {
    const user = await h.caller(admin).accounts.register(input);
    expect(user).toMatchObject({ username: "newstaff", role: "Staff", active: true });
    await expect(
      h.caller(null).accounts.login({ email: input.email, password: input.password }),
    ).resolves.toBeDefined();
    await expect(h.caller(admin).accounts.register(input)).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
