import type { TestProject } from "vitest/node";
import { startFakeBackend } from "./fake-backend.js";

// Starts the fake store backend once for the browser tests and hands its URL to them.
export default async function setup(project: TestProject) {
  const backend = await startFakeBackend();
  project.provide("backendUrl", backend.url);
  return () => backend.close();
}

declare module "vitest" {
  export interface ProvidedContext {
    backendUrl: string;
  }
}
