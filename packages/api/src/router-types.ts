import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "./root";

/** Every procedure's input type, e.g. `RouterInputs["tasks"]["list"]`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Every procedure's output type, e.g. `RouterOutputs["audios"]["get"]` (the web app's data shapes). */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
