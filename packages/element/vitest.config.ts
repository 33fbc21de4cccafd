import { playwright } from "@vitest/browser-playwright";
import type { BrowserCommand } from "vitest/node";
import { defineProject } from "vitest/config";

/** Lets a test emulate the user's media preferences (prefers-color-scheme, prefers-reduced-motion). */
const emulateMedia: BrowserCommand<
  [{ colorScheme?: "light" | "dark"; reducedMotion?: "reduce" | "no-preference" }]
> = async (ctx, media) => {
  await ctx.page.emulateMedia(media);
};

// The element's tests run in real Chromium (the system one: no test tool may download a
// browser) against a fake store backend that globalSetup starts on loopback.
export default defineProject({
  test: {
    name: "element",
    include: ["src/**/*.test.ts"],
    globalSetup: ["./test-support/global-setup.ts"],
    testTimeout: 20_000,
    // CI shares two cores with other suites: give polled expectations room.
    expect: { poll: { timeout: 4_000 } },
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
          ],
        },
        // Shoppers' clocks are mostly UTC−3: dates must not slip a day there.
        contextOptions: {
          permissions: ["clipboard-read", "clipboard-write"],
          timezoneId: "America/Sao_Paulo",
        },
      }),
      instances: [{ browser: "chromium" }],
      commands: { emulateMedia },
    },
  },
});
