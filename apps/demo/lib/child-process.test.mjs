import { readFileSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runChild, startChild } from "./child-process.mjs";

const node = process.execPath;

/** Running, and not a zombie waiting to be reaped. */
function isAlive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function logFile() {
  return join(await mkdtemp(join(tmpdir(), "pix-demo-child-")), "child.log");
}

/**
 * A child that starts a grandchild in its group, prints its pid, then runs `then` (idles or
 * exits). `grandchildPid()` is 0 until the child has printed it.
 * @param {string} name
 * @param {string} then
 */
async function childWithGrandchild(name, then) {
  const script = `
    const { spawn } = require("node:child_process");
    const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    grandchild.unref();
    console.log("grandchild " + grandchild.pid);
    ${then}
  `;
  let pid = 0;
  const child = await startChild({
    name,
    command: node,
    args: ["-e", script],
    cwd: process.cwd(),
    env: process.env,
    logFile: await logFile(),
    onLine: (line) => {
      const match = /^grandchild (\d+)$/.exec(line);
      if (match) pid = Number(match[1]);
    },
  });
  return { child, grandchildPid: () => pid };
}

describe("startChild", () => {
  it("stops the child and the processes it started", async () => {
    // The child starts a grandchild, prints its pid, then idles.
    const { child, grandchildPid } = await childWithGrandchild(
      "test",
      "setInterval(() => {}, 1000);",
    );
    await expect.poll(grandchildPid, { timeout: 10_000 }).toBeGreaterThan(0);
    await child.stop(5_000);
    expect(isAlive(child.pid)).toBe(false);
    await expect.poll(() => isAlive(grandchildPid()), { timeout: 5_000 }).toBe(false);
  });

  it("kills a child that ignores SIGTERM once the grace period ends", async () => {
    let up = false;
    const child = await startChild({
      name: "stubborn",
      command: node,
      args: [
        "-e",
        'process.on("SIGTERM", () => {}); console.log("up"); setInterval(() => {}, 1000)',
      ],
      cwd: process.cwd(),
      env: process.env,
      logFile: await logFile(),
      onLine: (line) => (up ||= line === "up"),
    });
    await expect.poll(() => up, { timeout: 10_000 }).toBe(true);
    await child.stop(300);
    const { signal } = await child.exited;
    expect(signal).toBe("SIGKILL");
  });

  it("ends what a child left in its group as soon as the child exits, and signals that group never again", async () => {
    // The leader starts a grandchild in its group, prints its pid, then exits on its own.
    const { child, grandchildPid } = await childWithGrandchild(
      "leaves one behind",
      "setTimeout(() => process.exit(0), 200);",
    );
    await child.exited;
    expect(grandchildPid()).toBeGreaterThan(0);
    await expect.poll(() => isAlive(grandchildPid()), { timeout: 5_000 }).toBe(false);
    // The group's id may belong to another process's group by now: neither stop() nor kill()
    // may signal it.
    const signalled = [];
    const kill = process.kill;
    process.kill = (target, signal) => (signalled.push([target, signal]), true);
    try {
      await child.stop(100);
      child.kill();
    } finally {
      process.kill = kill;
    }
    expect(signalled).toEqual([]);
  });

  it("writes the child's output to its log file", async () => {
    const file = await logFile();
    const child = await startChild({
      name: "echo",
      command: node,
      args: ["-e", 'console.log("hello from the child"); console.error("and its stderr")'],
      cwd: process.cwd(),
      env: process.env,
      logFile: file,
    });
    await child.exited;
    const log = await readFile(file, "utf8");
    expect(log).toContain("hello from the child");
    expect(log).toContain("and its stderr");
  });
});

describe("runChild", () => {
  it("fails with the exit code and the end of the log", async () => {
    await expect(
      runChild({
        name: "medusa db:migrate",
        command: node,
        args: ["-e", 'console.error("relation \\"cart\\" does not exist"); process.exit(3)'],
        cwd: process.cwd(),
        env: process.env,
        logFile: await logFile(),
      }),
    ).rejects.toThrow(
      /medusa db:migrate failed \(exit code 3\)[\s\S]*relation "cart" does not exist/,
    );
  });
});
