// puppeteer (pulled in by @web/test-runner-puppeteer) must never download a browser:
// the element's tests drive Debian's firefox-esr (scripts/ensure-environment.mjs).
module.exports = { skipDownload: true };
