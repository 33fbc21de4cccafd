import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * The order the workers take the test files in. Vitest's own order puts one project's files
 * after another's, by name, and on a fresh clone (no timings cached) the larger files first:
 * the packaged install (`packaging`, about 200 s) then starts last and runs alone while the others
 * have nothing left. Files that take minutes go first here, longest first, so that the
 * short ones fill the gaps at the end; the rest keep Vitest's order.
 */

/**
 * Files measured at a minute or more (2026-11-28, a quiet 2-core machine), longest first. The two
 * scale suites test for seconds but start built stores for most of a minute first (in their
 * `beforeAll`, which the report does not count as the file's time): last in Vitest's order, they
 * were the end of the step (2026-11-30: `live-status` began its tests 32 s after every other
 * integration file had ended).
 */
export const LONG_FILES = [
  "test/packaging/tarball-install.test.ts",
  "test/e2e/checkout.test.ts",
  "packages/medusa/integration-tests/http/many-charges.test.ts",
  "packages/medusa/integration-tests/http/money-model.test.ts",
  "packages/medusa/integration-tests/http/recovery.test.ts",
  "test/fuzz/hostile-input.test.ts",
  "packages/medusa/integration-tests/http/checkout.test.ts",
  "packages/medusa/integration-tests/scale/exporters.test.ts",
  "packages/medusa/integration-tests/scale/live-status.test.ts",
  "packages/medusa/integration-tests/scale/multi-instance.test.ts",
  "packages/medusa/integration-tests/http/store-routes.test.ts",
  "packages/medusa/integration-tests/http/money-path.test.ts",
];

/** Where `spec` stands in LONG_FILES, or past its end. */
function rank(spec: TestSpecification): number {
  const file = spec.moduleId.replaceAll("\\", "/");
  const index = LONG_FILES.findIndex((long) => file.endsWith(`/${long}`));
  return index === -1 ? LONG_FILES.length : index;
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: files of equal rank keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
