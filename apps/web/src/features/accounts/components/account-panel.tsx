import { useState, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import type { AccountUser } from "#web/lib/api-types";
import { isStrongPassword, WEAK_PASSWORD_DESCRIPTION, WEAK_PASSWORD_MESSAGE } from "@tafsiri/domain";
import {
  EMPTY_FORM,
  formErrors,
  formOf,
  ROLES,
  type AccountField,
  type AccountForm,
} from "#web/features/accounts/lib/account-form";
import { Field, SelectField } from "#web/components/field";
import { PasswordMeter } from "#web/components/password-meter";
import { CloseButton, SideSheet } from "#web/components/side-sheet";

/**
 * SPEC §2.10, §5, §8: the 'Create new account' / 'Edit account' side panel (a radix Dialog shown as
 * a right-side sheet). Fields username, email, password with the strength meter, role (Staff
 * preselected on create) and the admin's own password; validated on every change; the password
 * must be Strong on create and, on edit, when one is typed ('Password is weak' toast otherwise).
 * Save is disabled while the request runs; closing returns focus to the button that opened it.
 */
export function AccountPanel({
  mode,
  user,
  open,
  onOpenChange,
  trigger,
}: {
  mode: "create" | "edit";
  /** The account edited (edit mode). */
  user?: AccountUser;
  open: boolean;
  onOpenChange(open: boolean): void;
  trigger: ReactNode;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const initial = () => (user ? formOf(user) : EMPTY_FORM);
  const [form, setForm] = useState<AccountForm>(initial);
  const [touched, setTouched] = useState<Partial<Record<AccountField, boolean>>>({});
  const create = useMutation(trpc.accounts.register.mutationOptions());
  const edit = useMutation(trpc.accounts.edit.mutationOptions());
  const pending = create.isPending || edit.isPending;
  const errors = formErrors(form, mode);
  const idPrefix = `account-${mode}-${user?.id ?? "new"}`;
  const title = mode === "create" ? "Create new account" : "Edit account";

  function changeOpen(next: boolean) {
    if (pending) return;
    if (next) {
      setForm(initial());
      setTouched({});
    }
    onOpenChange(next);
  }

  function change(field: AccountField, value: string) {
    setForm((f) => ({ ...f, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
  }

  async function save() {
    setTouched({ username: true, email: true, password: true, role: true, adminPassword: true });
    const first = (Object.keys(errors) as AccountField[])[0];
    if (first) {
      document.getElementById(`${idPrefix}-${first}`)?.focus();
      return;
    }
    if ((mode === "create" || form.password) && !isStrongPassword(form.password)) {
      toast.error(WEAK_PASSWORD_MESSAGE, { description: WEAK_PASSWORD_DESCRIPTION });
      document.getElementById(`${idPrefix}-password`)?.focus();
      return;
    }
    const values = {
      username: form.username.trim(),
      email: form.email.trim(),
      role: form.role as AccountUser["role"],
      adminPassword: form.adminPassword,
    };
    try {
      const saved =
        mode === "create"
          ? await create.mutateAsync({ ...values, password: form.password })
          : await edit.mutateAsync({
              ...values,
              userId: user!.id,
              ...(form.password ? { password: form.password } : {}),
            });
      toast.success(saved.message);
      await queryClient.invalidateQueries(trpc.accounts.list.pathFilter());
      onOpenChange(false);
    } catch (error) {
      toast.error(mode === "create" ? "Failed to create user account" : "Failed to edit user account", {
        description: errorMessage(error),
      });
    }
  }

  const shown = (field: AccountField) => (touched[field] ? errors[field] : undefined);
  const field = (
    name: AccountField,
    label: string,
    input: { type: string; autoComplete: string },
    extra?: { describedBy?: string; after?: ReactNode },
  ) => (
    <Field id={`${idPrefix}-${name}`} label={label} error={shown(name)} describedBy={extra?.describedBy}>
      {(control) => (
        <>
          <input
            {...control}
            className="input"
            type={input.type}
            autoComplete={input.autoComplete}
            value={form[name]}
            disabled={pending}
            onChange={(e) => change(name, e.target.value)}
          />
          {extra?.after}
        </>
      )}
    </Field>
  );

  return (
    <SideSheet
      open={open}
      onOpenChange={changeOpen}
      trigger={trigger}
      title={title}
      description={
        mode === "create"
          ? "Add a user. Confirm with your own password."
          : `Change ${user?.username ?? "this user"}'s account. Leave the password empty to keep it.`
      }
      busy={pending}
    >
      <form
        className="stack sheet-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {field("username", "Username", { type: "text", autoComplete: "off" })}
        {field("email", "Email", { type: "email", autoComplete: "off" })}
        {field(
          "password",
          mode === "create" ? "Password" : "Password (optional)",
          { type: "password", autoComplete: "new-password" },
          {
            describedBy: `${idPrefix}-password-strength`,
            after: <PasswordMeter id={`${idPrefix}-password-strength`} password={form.password} />,
          },
        )}
        <SelectField
          id={`${idPrefix}-role`}
          label="Role"
          error={shown("role")}
          value={form.role}
          options={ROLES}
          disabled={pending}
          onChange={(role) => change("role", role)}
        />
        {field("adminPassword", "Your admin password", { type: "password", autoComplete: "current-password" })}
        <div className="dialog-actions">
          <CloseButton disabled={pending} />
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? <span className="spinner" aria-hidden="true" /> : null}
            {mode === "create" ? "Create Account" : "Save Changes"}
          </button>
        </div>
      </form>
    </SideSheet>
  );
}
