import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { endStragglers, newStepMarker, STEP_MARKER } from "../scripts/lib/stragglers.mjs";

/** Whether `pid` runs: a killed process whose parent has not reaped it yet (a zombie) does not. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

/**
 * A step as `npm test` runs one: a child with the step's marker, which starts a process in a
 * session of its own (as puppeteer starts a browser) and exits without ending it. Answers the
 * left process's pid.
 */
async function stepLeavingAProcess(marker: string): Promise<number> {
  const script = `
    const { spawn } = require("node:child_process");
    const left = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { detached: true, stdio: "ignore" });
    left.unref();
    console.log(left.pid);
  `;
  const step = spawn(process.execPath, ["-e", script], {
    env: { ...process.env, [STEP_MARKER]: marker },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  step.stdout.on("data", (chunk: Buffer) => (out += chunk));
  await once(step, "exit");
  return Number(out.trim());
}

describe.runIf(process.platform === "linux")("what a test step leaves running", () => {
  it("is ended after the step, and only what carries that step's marker", async () => {
    const marker = newStepMarker();
    const other = newStepMarker();
    const left = await stepLeavingAProcess(marker);
    const othersLeft = await stepLeavingAProcess(other);
    try {
      expect(alive(left)).toBe(true);
      // One process, whatever its name (Node.js 24 calls its main thread MainThread).
      expect(endStragglers(marker)).toHaveLength(1);
      await expect.poll(() => alive(left)).toBe(false);
      // Another run's step (another marker) is not this one's to end.
      expect(alive(othersLeft)).toBe(true);
    } finally {
      endStragglers(other);
    }
    await expect.poll(() => alive(othersLeft)).toBe(false);
  });
});
