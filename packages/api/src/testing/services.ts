/**
 * Domain functions that tests, the benchmarks and the browser tests call directly to seed data
 * or check wire formats, without going through a procedure. Application code uses the package
 * root (`@tafsiri/api`) only.
 */
export { createUser } from "../services/accounts";
export { signToken } from "../services/auth";
export { INVALID_EVENT_ID, ZLiveEvent } from "../schemas/events";
export { createAudio } from "../uploads/store-upload";
