// The user's media preferences: the dark color scheme (axe in every state) and reduced
// motion. The Chromium launcher emulates them per test (CDP). WebDriver has no such command,
// so Firefox and WebKit run this file in browsers launched with both preferences set
// (web-test-runner.config.mjs, group "preferences").
import { expect } from "@esm-bundle/chai";
import { emulateMedia } from "@web/test-runner-commands";
import { axeViolations, spinnerAnimation, states } from "../test-support/a11y.js";
import { newId, unmountAll } from "../test-support/control.js";
import "./pix-checkout.js";

type Media = Parameters<typeof emulateMedia>[0];

/** Gives the page `media` and returns how to undo it; fails where it cannot. */
async function prefer(media: Media): Promise<() => Promise<unknown>> {
  const query = media.colorScheme
    ? `(prefers-color-scheme: ${media.colorScheme})`
    : `(prefers-reduced-motion: ${media.reducedMotion})`;
  // Launched with it (Firefox, WebKit): nothing to emulate or undo.
  if (matchMedia(query).matches) return async () => {};
  await emulateMedia(media);
  expect(matchMedia(query).matches).to.equal(true);
  return () =>
    emulateMedia(media.colorScheme ? { colorScheme: "light" } : { reducedMotion: "no-preference" });
}

afterEach(unmountAll);

describe("motion", () => {
  it("keeps the loading indicator still when the user prefers reduced motion", async () => {
    const undo = await prefer({ reducedMotion: "reduce" });
    try {
      expect(await spinnerAnimation()).to.equal("none");
    } finally {
      await undo();
    }
  });
});

describe("accessibility", () => {
  for (const [name, show] of states) {
    it(`axe finds no violations in the ${name} state with the dark color scheme`, async () => {
      const undo = await prefer({ colorScheme: "dark" });
      try {
        const el = await show(newId("axe-dark"));
        expect(await axeViolations(el)).to.deep.equal([]);
      } finally {
        await undo();
      }
    });
  }
});
