// Which engines of the element's browser run to run once more, and how to count them then.
// WebKitGTK's driver has, about once in ten runs on a loaded 2-core machine, left a page that
// never reported its end (the runner's "did not finish") while no test had failed. An engine
// is run again only when every failure it had was such a stall; a failing test never is.

/** The runner's browser names, as `PIX_BROWSERS` (web-test-runner.config.mjs) spells them. */
export const ENGINE_OF = { Chrome: "chromium", Firefox: "firefox", MiniBrowser: "webkit" };

/**
 * The browser names to run again, or `[]` when there is nothing to re-run: no failure, or at
 * least one failure that was not a stall. `report` is the JSON reporter's output
 * (packages/element/test-support/json-reporter.mjs).
 */
export function stalledEngines(report) {
  const failing = Object.entries(report?.browsers ?? {}).filter(([, c]) => c.failed > 0);
  if (!failing.length) return [];
  const onlyStalls = failing.every(
    ([name, c]) => name in ENGINE_OF && c.stalled?.length === c.failed,
  );
  return onlyStalls ? failing.map(([name]) => name) : [];
}

/**
 * The first report with `names`' counts taken from `again` (the second run). An engine the
 * second run did not report counts as one failure.
 */
export function withRerun(report, again, names) {
  const browsers = { ...report.browsers };
  for (const name of names) {
    browsers[name] = again?.browsers?.[name] ?? { passed: 0, failed: 1, skipped: 0, stalled: [] };
  }
  const merged = { ...report, passed: 0, failed: 0, skipped: 0, browsers, rerun: names };
  for (const counts of Object.values(browsers)) {
    for (const key of ["passed", "failed", "skipped"]) merged[key] += counts[key];
  }
  return merged;
}
