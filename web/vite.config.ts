import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The app is served by `quickphotos serve` at /app/, so every asset URL is under it.
// `npm run dev` serves it at http://localhost:5173/app/ and talks to the server named by
// VITE_QUICKPHOTOS_API (default http://127.0.0.1:8080), which must list the dev server's
// origin in --cors-origins (docs/web-app.md).
export default defineConfig({
  base: "/app/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Content-hashed names only: the embedded build must be the same bytes on every machine.
    sourcemap: false,
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
