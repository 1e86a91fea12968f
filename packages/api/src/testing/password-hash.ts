/**
 * The app's password hashing for scripts that write accounts in bulk (`npm run seed`): hash a
 * shared password once and copy the hash into every row, instead of one argon2 run per account.
 * Application code uses the services, which hash on their own.
 */
export { hashPassword } from "../services/auth";
