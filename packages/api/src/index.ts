export { appRouter, type AppRouter } from "./root";
export { createCallerFactory } from "./trpc";
export { createContextInner, type AppDeps, type Context, type SessionUser } from "./context";
export { authenticate, bearerToken } from "./services/auth";
export { createLocalStorage, type FileStorage } from "./storage/file-storage";
export { createEventBus, type EventBus, type EventSubscriber } from "./services/event-bus";
export type { LiveEvent } from "./schemas/events";
export { serializedJson, shareSerialization } from "./services/serialize-once";
