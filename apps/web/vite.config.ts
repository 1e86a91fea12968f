import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { compression } from "vite-plugin-compression2";

const api = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [
    react(),
    // Every text file of the build also as `.br` (quality 11) and `.gz` (level 9) beside it,
    // which the server sends as they are (apps/server/src/routes/web.ts). The manifest is for tests only.
    compression({ algorithms: ["brotliCompress", "gzip"], exclude: [/\.vite\//] }),
  ],
  // `#web/...` is `src/...`, as tsconfig.json's paths say: imports read from the app's root, not `../../../`.
  resolve: { alias: [{ find: /^#web\//, replacement: fileURLToPath(new URL("./src/", import.meta.url)) }] },
  build: {
    outDir: "dist",
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    // dist/.vite/manifest.json: which chunks and CSS each entry and lazy route loads (apps/server/test/web-budget.test.ts).
    manifest: true,
  },
  server: {
    proxy: {
      "/trpc": { target: api, ws: true },
      "/api": api,
      "/auth": api,
      "/files": api,
      "/healthz": api,
    },
  },
});
