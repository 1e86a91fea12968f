import type { Executor } from "@tafsiri/db";
import { findActiveStaff, type UserRef } from "@tafsiri/db/repositories/users";
import { AppError } from "../errors/app-error";
import { isUuid } from "../schemas/common";

/**
 * The active Staff user `staffId`; throws BAD_REQUEST with `message` (the spec's wording for the
 * form at hand) when it is unknown, deactivated or not Staff.
 */
export async function requireActiveStaff(db: Executor, staffId: string, message: string): Promise<UserRef> {
  const staff = isUuid(staffId) ? await findActiveStaff(db, staffId) : undefined;
  if (!staff) throw new AppError("BAD_REQUEST", message);
  return staff;
}
