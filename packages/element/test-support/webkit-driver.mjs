// Starts Debian's WebKitWebDriver (package webkit2gtk-driver) on a free loopback port for
// the test runner's webdriver launcher. It drives MiniBrowser, which needs an X display:
// pass one in `env.DISPLAY` (see x-display.mjs) or run under one.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";

const candidates = [
  process.env.WEBKIT_MINIBROWSER,
  "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
  "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
  "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.0/MiniBrowser",
  "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.0/MiniBrowser",
];

/** Debian's MiniBrowser (WEBKIT_MINIBROWSER overrides). */
export const WEBKIT_MINIBROWSER =
  candidates.find((path) => path && existsSync(path)) ?? candidates[1];

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const answers = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/**
 * Starts WebKitWebDriver and resolves once it accepts connections. `env` is added to the
 * environment of the driver and so of the MiniBrowser it starts (GTK settings, say).
 */
export async function startWebKitDriver(env = {}) {
  if (!(env.DISPLAY ?? process.env.DISPLAY)) {
    throw new Error("WebKit's MiniBrowser needs an X display: start Xvfb (x-display.mjs).");
  }
  const port = await freePort();
  const child = spawn(process.env.WEBKIT_WEBDRIVER ?? "WebKitWebDriver", [`--port=${port}`], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise((_, reject) =>
    child.once("exit", (code) => reject(new Error(`WebKitWebDriver exited with ${code}`))),
  );
  exited.catch(() => {});
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null) await exited;
    if (Date.now() > deadline) throw new Error("WebKitWebDriver did not start within 10 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, stop: () => child.kill() };
}
