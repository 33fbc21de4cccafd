// The demo's fixed default ports, and a check that they are free before anything starts.
import net from "node:net";

/** Default ports: the store (Medusa + admin), the storefront, the sandbox, the embedded DB, the mailbox. */
export const defaultPorts = Object.freeze({
  store: 9000,
  storefront: 5173,
  sandbox: 4010,
  embeddedPostgres: 5433,
  // The mailbox (MailDev): its SMTP port and its web inbox.
  mailSmtp: 1025,
  mailWeb: 1080,
});

/**
 * Throws one error naming every port that something already listens on, so the person
 * running the demo learns about all conflicts at once instead of one per attempt.
 * @param {string} host
 * @param {Record<string, number>} ports Name → port, e.g. `{ store: 9000 }`.
 */
export async function assertPortsFree(host, ports) {
  const taken = [];
  for (const [name, port] of Object.entries(ports)) {
    if (port !== 0 && !(await isFree(host, port))) taken.push(`${name} ${host}:${port}`);
  }
  if (taken.length > 0) {
    throw new Error(
      `Port(s) already in use: ${taken.join(", ")}. Stop what listens there (another ` +
        `\`npm run demo\`?) or pick other ports (see \`npm run demo -- --help\`).`,
    );
  }
}

/**
 * @param {string} host
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function isFree(host, port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
