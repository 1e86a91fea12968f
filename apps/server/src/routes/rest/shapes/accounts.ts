import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_USER_ID } from "./common";

type PublicUser = RouterOutputs["accounts"]["login"]["user"];

/** SPEC §3 User as REST answers it (never the password hash). */
export const ZRestUser = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(["Admin", "Staff"]),
  active: z.boolean(),
  image: z.string().nullable(),
});

export const EXAMPLE_USER = {
  _id: EXAMPLE_USER_ID,
  username: "amina",
  email: "amina@example.org",
  role: "Staff",
  active: true,
  image: null,
} as const;

/** `_id`-shaped user from a procedure's user. */
export function restUser(u: PublicUser): z.output<typeof ZRestUser> {
  return { _id: u.id, username: u.username, email: u.email, role: u.role, active: u.active, image: u.image };
}
