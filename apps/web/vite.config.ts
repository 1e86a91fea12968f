import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const api = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", sourcemap: false, chunkSizeWarningLimit: 1200 },
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
