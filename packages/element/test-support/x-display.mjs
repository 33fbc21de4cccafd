// A private X display for WebKit's MiniBrowser, which has no headless mode.
//
// `xvfb-run -a` picks a display by looking for a free lock file, so two runs that start
// together (a developer's run beside CI, two worktrees) can pick the same number: one
// Xvfb fails and its browsers land on the other run's display, then lose it when that run
// ends ("cannot open display :99"). `Xvfb -displayfd` lets the server itself claim a free
// number atomically and report it, so concurrent runs never share a display.
import { spawn } from "node:child_process";

/**
 * Starts Xvfb on a display number of its own choosing; resolves with `DISPLAY` (":N") and a
 * `stop` function once the server accepts connections.
 */
export function startXvfb({ timeoutMs = 15_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "Xvfb",
      ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
      { stdio: ["ignore", "ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    let reported = "";
    const fail = (message) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${message}${stderr ? `\n${stderr.trim()}` : ""}`));
    };
    const timer = setTimeout(() => fail(`Xvfb did not start within ${timeoutMs} ms`), timeoutMs);
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", (error) =>
      fail(`Xvfb could not start (${error.code}): install Debian's xvfb package`),
    );
    child.once("exit", (code) => fail(`Xvfb exited with ${code} before reporting its display`));
    // Xvfb writes the display number, then a newline, once it is ready for clients.
    child.stdio[3].on("data", (chunk) => {
      reported += chunk;
      if (!reported.includes("\n")) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({ display: `:${reported.trim()}`, stop: () => child.kill() });
    });
  });
}
