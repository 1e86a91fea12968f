import type { AccountUser } from "#web/lib/api-types";

export type Role = AccountUser["role"];
export const ROLES: readonly Role[] = ["Admin", "Staff"];

/** The create / edit account form's fields (SPEC §2.10, §5). */
export interface AccountForm {
  username: string;
  email: string;
  password: string;
  role: Role | "";
  adminPassword: string;
}

export type AccountField = keyof AccountForm;

/** An empty create form: role Staff preselected (SPEC §5). */
export const EMPTY_FORM: AccountForm = { username: "", email: "", password: "", role: "Staff", adminPassword: "" };

/** The edit form of `user`: its values, an empty password (unchanged unless typed) and admin password. */
export function formOf(user: AccountUser): AccountForm {
  return { username: user.username, email: user.email, password: "", role: user.role, adminPassword: "" };
}

/**
 * SPEC §5 messages for each field, validated on every change: username, email, role and admin
 * password required; the password required on create only (its strength is checked on save).
 */
export function formErrors(form: AccountForm, mode: "create" | "edit"): Partial<Record<AccountField, string>> {
  const errors: Partial<Record<AccountField, string>> = {};
  if (!form.username.trim()) errors.username = "Username is required";
  if (!form.email.trim()) errors.email = "Email is required";
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) errors.email = "Email is invalid";
  if (mode === "create" && !form.password) errors.password = "Password is required";
  if (!form.role) errors.role = "Role is required";
  if (!form.adminPassword) errors.adminPassword = "Admin password is required";
  return errors;
}
