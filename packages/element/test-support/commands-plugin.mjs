// Server-side commands the browser tests call through executeServerCommand
// (@web/test-runner-commands), for what a page cannot do by itself.

/** Screenshot of the test page's viewport as base64 PNG, in any of the three launchers. */
async function screenshot(session) {
  if (session.browser.type === "puppeteer") {
    return session.browser.getPage(session.id).screenshot({ encoding: "base64" });
  }
  if (session.browser.type === "webdriver") return session.browser.driver.takeScreenshot();
  throw new Error(`no screenshot for launcher ${session.browser.type}`);
}

/**
 * `pix-screenshot` → base64 PNG of the viewport; `pix-engine` → the launcher's browser name
 * ("Chrome" for the Chromium launcher, "Firefox", "MiniBrowser"). `onStop` runs when the test server stops.
 */
export function pixCommandsPlugin({ onStop } = {}) {
  return {
    name: "pix-commands",
    async executeCommand({ command, session }) {
      if (command === "pix-screenshot") return screenshot(session);
      if (command === "pix-engine") return session.browser.name;
      return undefined;
    },
    async serverStop() {
      await onStop?.();
    },
  };
}
