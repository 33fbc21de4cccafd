// A @web/test-runner reporter that writes the run's counts to a JSON file, so that
// `npm test` (scripts/test.mjs) can add them to its closing "N passed, N failed" line.
import { writeFileSync } from "node:fs";

function count(suite, into) {
  for (const test of suite?.tests ?? []) {
    if (test.skipped) into.skipped++;
    else if (test.passed) into.passed++;
    else into.failed++;
  }
  for (const child of suite?.suites ?? []) count(child, into);
}

/**
 * Writes `{ passed, failed, skipped, seconds, browsers: { [name]: { passed, failed, skipped,
 * files: { [file]: counts } } } }`
 * to `file` when the run ends. A test file that could not run at all (a load error, a
 * crashed page) counts as one failure, so that it can never pass unnoticed.
 */
export function jsonReporter(file) {
  const started = Date.now();
  return {
    onTestRunFinished({ sessions }) {
      const total = { passed: 0, failed: 0, skipped: 0 };
      const browsers = {};
      for (const session of sessions) {
        const mine = (browsers[session.browser.name] ??= {
          passed: 0,
          failed: 0,
          skipped: 0,
          files: {},
        });
        const before = { ...mine };
        count(session.testResults, mine);
        const file = session.testFile.replace(/^.*\/(src|test-pages)\//, "$1/");
        mine.files[file] = { passed: 0, failed: 0, skipped: 0 };
        count(session.testResults, mine.files[file]);
        const ran = mine.passed + mine.failed - before.passed - before.failed;
        if ((session.errors?.length ?? 0) > 0 || (!session.passed && ran === 0)) {
          if (mine.failed === before.failed) mine.failed++;
        }
      }
      for (const b of Object.values(browsers)) {
        total.passed += b.passed;
        total.failed += b.failed;
        total.skipped += b.skipped;
      }
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      writeFileSync(file, `${JSON.stringify({ ...total, seconds, browsers }, null, 2)}\n`);
    },
  };
}
