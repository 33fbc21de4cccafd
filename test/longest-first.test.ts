import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LONG_FILES } from "./support/longest-first.js";

// The sequencer finds the long files by path: one renamed or removed would quietly lose its
// place at the front, and `npm test` would end with it running alone again.
describe("the files the test run starts first", () => {
  it.each(LONG_FILES)("%s exists", (file: string) => {
    expect(existsSync(new URL(`../${file}`, import.meta.url))).toBe(true);
  });
});
