import net from "node:net";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { assertPortsFree } from "./ports.mjs";

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
  it("names every taken port in one error", async () => {
    const store = await occupy();
    const sandbox = await occupy();
    await expect(assertPortsFree("127.0.0.1", { store, sandbox, storefront: 0 })).rejects.toThrow(
      `Port(s) already in use: store 127.0.0.1:${store}, sandbox 127.0.0.1:${sandbox}.`,
    );
  });

  it("passes when nothing listens", async () => {
    const port = await occupy();
    await new Promise((r) => servers.pop()?.close(r));
    await expect(assertPortsFree("127.0.0.1", { store: port })).resolves.toBeUndefined();
  });
});
