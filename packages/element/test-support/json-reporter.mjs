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

/** Each failed test's full name (its suites' names, then its own) and its error's first line. */
function failedIn(suite, path, into) {
  const here = suite?.name ? [...path, suite.name] : path;
  for (const test of suite?.tests ?? []) {
    if (test.skipped || test.passed) continue;
    const why = String(test.error?.message ?? "")
      .split("\n")[0]
      .slice(0, 200);
    into.push({ name: [...here, test.name].join(" › "), why });
  }
  for (const child of suite?.suites ?? []) failedIn(child, here, into);
}

/**
 * Writes `{ passed, failed, skipped, seconds, failures: [{ browser, file, name, why }],
 * browsers: { [name]: { passed, failed, skipped, files: { [file]: counts } } } }`
 * to `file` when the run ends (`npm test` names the failures again at the end of its output,
 * which is all CI keeps). A test file that could not run at all (a load error, a
 * crashed page) counts as one failure, so that it can never pass unnoticed.
 */
export function jsonReporter(file) {
  const started = Date.now();
  return {
    onTestRunFinished({ sessions }) {
      const total = { passed: 0, failed: 0, skipped: 0 };
      const browsers = {};
      const failures = [];
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
        const failed = [];
        failedIn(session.testResults, [], failed);
        for (const error of session.errors ?? []) {
          failed.push({ name: "(the file)", why: String(error?.message ?? error).split("\n")[0] });
        }
        const ran = mine.passed + mine.failed - before.passed - before.failed;
        if ((session.errors?.length ?? 0) > 0 || (!session.passed && ran === 0)) {
          if (mine.failed === before.failed) mine.failed++;
          if (failed.length === 0) failed.push({ name: "(the file)", why: "did not finish" });
        }
        for (const f of failed) failures.push({ browser: session.browser.name, file, ...f });
      }
      for (const b of Object.values(browsers)) {
        total.passed += b.passed;
        total.failed += b.failed;
        total.skipped += b.skipped;
      }
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      writeFileSync(
        file,
        `${JSON.stringify({ ...total, seconds, failures, browsers }, null, 2)}\n`,
      );
    },
  };
}
