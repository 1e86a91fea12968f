// `npm start`: builds what is missing or stale (the web app, the compiled server), then runs the
// compiled server, apps/server/dist/server.js, in this process (embedded PGlite unless DATABASE_URL
// is set). Source maps are on, so stack traces name the TypeScript (decision 026). The server
// handles SIGINT and SIGTERM itself. `npm run dev` still runs the TypeScript through tsx.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureServerBuild, serverDist } from "./server-build.mjs";
import { ensureWebBuild } from "./web-build.mjs";

ensureWebBuild();
ensureServerBuild();
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(serverDist, "server.js")).href);
