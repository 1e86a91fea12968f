import type { Executor } from "../connection";

/** A user's id and username. */
export interface UserRef {
  id: string;
  username: string;
}

/** The active Staff user with this id, or undefined (unknown, deactivated or an Admin). */
export function findActiveStaff(db: Executor, id: string): Promise<UserRef | undefined> {
  return db
    .selectFrom("users")
    .select(["id", "username"])
    .where("id", "=", id)
    .where("role", "=", "Staff")
    .where("active", "=", true)
    .executeTakeFirst();
}

/** The id and username of a user, or undefined. */
export function findUserRef(db: Executor, id: string): Promise<UserRef | undefined> {
  return db.selectFrom("users").select(["id", "username"]).where("id", "=", id).executeTakeFirst();
}
