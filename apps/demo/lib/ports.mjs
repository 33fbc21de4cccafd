// The demo's default ports, and how a run gets its own: a port asked for must be free, a
// default that is taken gives way to one the system picks, so a second demo starts beside the
// first without any flag.
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

/** The `npm run demo` flag that sets each port, named in every message about a port. */
export const portFlags = Object.freeze({
  store: "--store-port",
  storefront: "--storefront-port",
  sandbox: "--sandbox-port",
  embeddedPostgres: "--postgres-port",
  mailSmtp: "--mail-smtp-port",
  mailWeb: "--mail-web-port",
});

/**
 * Throws one error naming every port that something already listens on, with the flag that
 * moves it, so the person running the demo learns about all conflicts at once instead of one
 * per attempt.
 * @param {string} host
 * @param {Record<string, number>} ports Name → port, e.g. `{ store: 9000 }`.
 */
export async function assertPortsFree(host, ports) {
  const taken = [];
  for (const [name, port] of Object.entries(ports)) {
    if (port !== 0 && !(await isFree(host, port))) taken.push(describe(name, host, port));
  }
  if (taken.length > 0) {
    throw new Error(
      `Port(s) already in use: ${taken.join(", ")}. Stop what listens there (another ` +
        `\`npm run demo\`?), pick another port with that flag, or leave the flag out and the ` +
        `demo picks a free port (see \`npm run demo -- --help\`).`,
    );
  }
}

/**
 * The ports a run listens on. A port in `asked` (a flag) must be free, or this throws naming
 * its flag; every other one is its default when free, else a free port the system picks
 * (listed in `moved`, so the banner says so).
 * @template {string} Name
 * @param {string} host
 * @param {Record<Name, number>} defaults
 * @param {Partial<Record<Name, number>>} asked
 * @returns {Promise<{ ports: Record<Name, number>, moved: Name[] }>}
 */
export async function choosePorts(host, defaults, asked) {
  const names = /** @type {Name[]} */ (Object.keys(defaults));
  /** @type {Record<string, number>} */
  const explicit = {};
  for (const name of names) {
    const port = asked[name];
    if (port !== undefined) explicit[name] = port;
  }
  await assertPortsFree(host, explicit);
  const ports = /** @type {Record<Name, number>} */ ({ ...explicit });
  /** @type {Name[]} */
  const moved = [];
  // Two parts of one run must not land on one port either: each choice counts as taken.
  const chosen = new Set(Object.values(explicit));
  for (const name of names) {
    if (asked[name] !== undefined) continue;
    const preferred = defaults[name];
    if (!chosen.has(preferred) && (await isFree(host, preferred))) {
      ports[name] = preferred;
    } else {
      let port;
      do port = await systemPort(host);
      while (chosen.has(port));
      ports[name] = port;
      moved.push(name);
    }
    chosen.add(ports[name]);
  }
  return { ports, moved };
}

/**
 * @param {string} name
 * @param {string} host
 * @param {number} port
 */
function describe(name, host, port) {
  const flag = /** @type {Record<string, string>} */ (portFlags)[name];
  return flag ? `${name} ${host}:${port} (${flag})` : `${name} ${host}:${port}`;
}

/**
 * A port the system says is free on `host` right now.
 * @param {string} host
 * @returns {Promise<number>}
 */
function systemPort(host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * @param {string} host
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function isFree(host, port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
