// The system Chromium, driven by playwright-core (which never downloads a browser of its own).
import { chromium } from "playwright-core";

/** Launches headless Chromium from CHROMIUM_PATH or /usr/bin/chromium. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}
