import net from "node:net";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { assertPortsFree, choosePorts } from "./ports.mjs";

/** @type {net.Server[]} */
const servers = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((r) => server.close(r))));
});

async function occupy() {
  const server = net.createServer();
  servers.push(server);
  server.listen({ host: "127.0.0.1", port: 0 });
  await once(server, "listening");
  return /** @type {net.AddressInfo} */ (server.address()).port;
}

describe("assertPortsFree", () => {
  it("names every taken port, and the flag that moves it, in one error", async () => {
    const store = await occupy();
    const sandbox = await occupy();
    await expect(assertPortsFree("127.0.0.1", { store, sandbox, storefront: 0 })).rejects.toThrow(
      `Port(s) already in use: store 127.0.0.1:${store} (--store-port), sandbox 127.0.0.1:${sandbox} (--sandbox-port).`,
    );
  });

  it("passes when nothing listens", async () => {
    const port = await occupy();
    await new Promise((r) => servers.pop()?.close(r));
    await expect(assertPortsFree("127.0.0.1", { store: port })).resolves.toBeUndefined();
  });
});

describe("choosePorts", () => {
  it("refuses a taken port that was asked for, naming its flag", async () => {
    const store = await occupy();
    await expect(choosePorts("127.0.0.1", { store: 1, mailSmtp: 2 }, { store })).rejects.toThrow(
      `store 127.0.0.1:${store} (--store-port)`,
    );
  });

  it("keeps a free default and moves a taken one to a free port, saying which", async () => {
    const taken = await occupy();
    const free = await occupy();
    await new Promise((r) => servers.pop()?.close(r));
    const { ports, moved } = await choosePorts("127.0.0.1", { store: taken, mailWeb: free }, {});
    expect(ports.mailWeb).toBe(free);
    expect(ports.store).not.toBe(taken);
    expect(moved).toEqual(["store"]);
    await expect(assertPortsFree("127.0.0.1", { store: ports.store })).resolves.toBeUndefined();
  });
});
