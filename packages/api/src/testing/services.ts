/**
 * Domain functions that tests, the benchmarks and the browser tests call directly to seed data
 * or check wire formats, without going through a procedure. Application code uses the package
 * root (`@tafsiri/api`) only.
 */
export { createUser } from "../services/accounts";
export { signSessionToken } from "../services/auth";
export { signTestToken as signToken } from "./test-tokens";
export { INVALID_EVENT_ID, ZLiveEvent } from "../schemas/events";
export { createAudio } from "../uploads/store-upload";
