import { describe, expect, it } from "vitest";
import { EMPTY_FORM, formErrors, formOf } from "./account-form";

const FILLED = {
  username: "zawadi",
  email: "zawadi@example.test",
  password: "Zaw4di!Strong",
  role: "Staff",
  adminPassword: "secret",
} as const;

describe("the account panel's checks (SPEC §2.10, §5)", () => {
  it("an empty create form asks for every field but the preselected role", () => {
    expect(EMPTY_FORM.role).toBe("Staff");
    expect(formErrors(EMPTY_FORM, "create")).toEqual({
      username: "Username is required",
      email: "Email is required",
      password: "Password is required",
      adminPassword: "Admin password is required",
    });
    expect(formErrors({ ...EMPTY_FORM, role: "" }, "create").role).toBe("Role is required");
  });

  it("passes a filled form; editing leaves the password empty to keep it", () => {
    expect(formErrors(FILLED, "create")).toEqual({});
    expect(formErrors({ ...FILLED, password: "" }, "edit")).toEqual({});
  });

  it("refuses a blank username and an email that is not one", () => {
    expect(formErrors({ ...FILLED, username: "  " }, "create").username).toBe("Username is required");
    expect(formErrors({ ...FILLED, email: "zawadi" }, "create").email).toBe("Email is invalid");
    expect(formErrors({ ...FILLED, email: "zawadi@example" }, "create").email).toBe("Email is invalid");
    expect(formErrors({ ...FILLED, email: " zawadi@example.test " }, "create").email).toBeUndefined();
  });

  it("opens an account for editing with its values and empty passwords", () => {
    const user = { id: "u1", username: "zawadi", email: "zawadi@example.test", active: true, image: null };
    expect(formOf({ ...user, role: "Admin" })).toEqual({
      username: "zawadi",
      email: "zawadi@example.test",
      password: "",
      role: "Admin",
      adminPassword: "",
    });
  });
});
