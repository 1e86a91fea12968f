import { createBrowserRouter, RouterProvider, type RouteObject } from "react-router";
import { RequireAuth, RequireRole } from "./guards";
import { AppLayout } from "../components/layout/app-layout";
import type { Session } from "../lib/session";

type Role = Session["role"];
const BOTH: Role[] = ["Admin", "Staff"];
const ADMIN: Role[] = ["Admin"];

/** A lazily loaded route file (STYLE §12) guarded by role. Each file exports `Component`. */
function guarded(path: string, roles: Role[], load: () => Promise<{ Component: React.ComponentType }>): RouteObject {
  return {
    path,
    lazy: async () => {
      const { Component } = await load();
      return {
        Component: () => (
          <RequireRole roles={roles}>
            <Component />
          </RequireRole>
        ),
      };
    },
  };
}

/** SPEC §2.1 route table. Paths match case-insensitively (react-router's default). */
const routes: RouteObject[] = [
  { path: "/signin", lazy: () => import("./routes/signin") },
  { path: "/reset-password", lazy: () => import("./routes/reset-password") },
  { path: "/utility/404", lazy: () => import("./routes/not-found") },
  {
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    children: [
      guarded("/", BOTH, () => import("./routes/home")),
      guarded("/Audios", BOTH, () => import("./routes/tasks")),
      guarded("/Recordings", BOTH, () => import("./routes/recordings")),
      guarded("/submission/general", BOTH, () => import("./routes/submissions")),
      guarded("/accounts/users", ADMIN, () => import("./routes/accounts")),
      guarded("/audiomanagement/audiocontrol", BOTH, () => import("./routes/audiomanagement/audio")),
      guarded("/audiomanagement/trascript", BOTH, () => import("./routes/audiomanagement/transcript")),
      guarded("/audiomanagement/translatedaudio", BOTH, () => import("./routes/audiomanagement/translated-audio")),
      guarded("/audiomanagement/feedback", BOTH, () => import("./routes/audiomanagement/feedback")),
      guarded("/audiomanagement/recommend", BOTH, () => import("./routes/audiomanagement/recommend")),
      guarded("/management/upload", ADMIN, () => import("./routes/management/upload")),
      guarded("/management/createtasks", ADMIN, () => import("./routes/management/create-tasks")),
      guarded("/management/manageaudios", ADMIN, () => import("./routes/management/manage-audios")),
      guarded("/log/log-listing", ADMIN, () => import("./routes/logs")),
    ],
  },
  { path: "*", lazy: () => import("./routes/not-found") },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
