import { defineProject } from "vitest/config";

// The element's pure decisions, in Node: the status mapping (src/internal/status-mapping.ts),
// which imports neither Lit nor the DOM. Every other *.test.ts of this package runs in real
// browsers (web-test-runner.config.mjs), which leaves these out: they are vitest's.
export default defineProject({
  test: {
    name: "element-unit",
    environment: "node",
    include: ["src/internal/status-mapping.test.ts"],
  },
});
