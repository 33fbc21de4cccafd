import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { startFakeBackend } from "./fake-backend.js";

// Builds dist/ (esbuild, well under a second) so that dist.test.ts checks what ships,
// then starts the fake store backend once and hands its URL to the browser tests.
export default async function setup(project: TestProject) {
  execFileSync("node", ["build.mjs"], { cwd: new URL("..", import.meta.url), stdio: "inherit" });
  const backend = await startFakeBackend();
  project.provide("backendUrl", backend.url);
  return () => backend.close();
}

declare module "vitest" {
  export interface ProvidedContext {
    backendUrl: string;
  }
}
