// The demo's mailbox: MailDev (an SMTP server that keeps every message, with a web inbox), so
// a merchant reads the store's e-mails (the code, the reminders, "pagamento confirmado") as a
// shopper would. Its own process: MailDev's entry point exits the process on SIGTERM, which
// would cut the demo's orderly stop short, as Vite's would.
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { startChild } from "./child-process.mjs";
import { demoRoot } from "./paths.mjs";

/**
 * @typedef {object} DemoMailbox
 * @property {string} url The web inbox, e.g. http://127.0.0.1:1080
 * @property {number} smtpPort Where the store sends its e-mails.
 * @property {() => Promise<import("./index.mjs").MailboxMessage[]>} messages Every message
 *   the inbox holds (its REST API), oldest first.
 * @property {() => Promise<void>} close
 */

/**
 * Starts MailDev on loopback, keeping its messages in `directory` across runs (a clock step
 * or a restart overwrites nothing), and resolves once its inbox answers.
 * @param {{ host: string, smtpPort: number, webPort: number, directory: string, logDir: string }} options
 * @returns {Promise<DemoMailbox>}
 */
export async function startMailbox(options) {
  mkdirSync(options.directory, { recursive: true });
  const bin = join(
    createRequire(import.meta.url).resolve("maildev/package.json"),
    "..",
    "bin",
    "maildev",
  );
  const child = await startChild({
    name: "mailbox",
    command: process.execPath,
    args: [
      bin,
      "--ip",
      options.host,
      "--smtp",
      String(options.smtpPort),
      "--web",
      String(options.webPort),
      "--mail-directory",
      options.directory,
    ],
    cwd: demoRoot,
    env: { ...process.env },
    logFile: join(options.logDir, "mailbox.log"),
  });
  const url = `http://${options.host}:${options.webPort}`;
  /** @returns {Promise<import("./index.mjs").MailboxMessage[]>} */
  const messages = async () => {
    const response = await fetch(`${url}/email`);
    if (!response.ok) throw new Error(`the mailbox answered ${response.status}`);
    return /** @type {Promise<import("./index.mjs").MailboxMessage[]>} */ (response.json());
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (
      await messages().then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await child.stop();
      throw new Error(`The mailbox did not answer ${url}:\n${await child.logTail()}`);
    }
    // Readiness has no event to await across processes; a short poll is the honest option.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, smtpPort: options.smtpPort, messages, close: () => child.stop() };
}
