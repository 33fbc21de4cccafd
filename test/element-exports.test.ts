// @pix-checkout/element's exports map, resolved the way storefront bundlers resolve it:
// every entry point must resolve under the conditions of Next's client and server builds
// (webpack and Turbopack), Next's react-server layer, Vite's client and SSR builds and plain
// Node, and what a server loads must import and render without a DOM.
import { build } from "esbuild";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

const element = fileURLToPath(new URL("../packages/element/", import.meta.url));

/** The file a bundler with these conditions picks for `specifier`, relative to the package. */
async function resolveWith(
  specifier: string,
  platform: "browser" | "node" | "neutral",
  conditions: string[],
): Promise<string> {
  const result = await build({
    stdin: { contents: `import(${JSON.stringify(specifier)});`, resolveDir: element },
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform,
    conditions,
    external: ["react"],
    logLevel: "silent",
  });
  const inputs = Object.keys(result.metafile.inputs);
  const entry = specifier.endsWith("/react") ? "/react.js" : "/index.js";
  const hit = inputs.find((p) => p.includes("packages/element/dist/") && p.endsWith(entry));
  if (!hit) throw new Error(`${specifier} did not resolve to a dist entry: ${inputs.join(", ")}`);
  return hit.slice(hit.indexOf("dist/"));
}

// The condition sets each tool passes (besides import/require/default, which every one adds).
const bundlers = [
  { name: "Next client build (webpack, Turbopack)", platform: "browser", conditions: ["browser"] },
  { name: "Vite client build", platform: "browser", conditions: ["browser", "module"] },
  { name: "Next server build, ssr layer", platform: "node", conditions: ["node"] },
  { name: "Next server build, rsc layer", platform: "node", conditions: ["react-server", "node"] },
  { name: "Vite SSR build", platform: "node", conditions: ["node", "module"] },
  // Next's edge runtime resolves with edge-light, worker and browser, and has no Node builtins.
  {
    name: "Next edge runtime",
    platform: "neutral",
    conditions: ["edge-light", "worker", "browser"],
  },
] as const;

describe.each(bundlers)("$name", ({ platform, conditions }) => {
  const dir = platform === "browser" ? "dist/" : "dist/server/";
  it.each(["@pix-checkout/element", "@pix-checkout/element/react"])(
    `resolves %s to the ${platform} build`,
    async (specifier) => {
      const file = await resolveWith(specifier, platform, [...conditions]);
      expect(file).toBe(`${dir}${specifier.endsWith("/react") ? "react.js" : "index.js"}`);
    },
  );
});

describe("on a server without a DOM", () => {
  it("imports both entry points in Node without touching customElements or HTMLElement", async () => {
    expect(typeof (globalThis as Record<string, unknown>).HTMLElement).toBe("undefined");
    const main = await import("@pix-checkout/element");
    const react = await import("@pix-checkout/element/react");
    expect(typeof main.PixCheckout).toBe("function");
    expect(typeof react.PixCheckout).toBe("object"); // a forwardRef component
  });

  it("renders <PixCheckout> to a bare tag the browser build hydrates, with no element properties as attributes", async () => {
    const { PixCheckout } = await import("@pix-checkout/element/react");
    const html = renderToString(
      createElement(PixCheckout, {
        sessionId: "payses_1",
        backendUrl: "http://127.0.0.1:9000",
        publishableKey: "pk_test",
        className: "pay",
      }),
    );
    expect(html).toBe('<pix-checkout class="pay"></pix-checkout>');
  });
});

it("keeps Node's builtins out of the server build, so an edge runtime can load it", () => {
  const server = join(element, "dist", "server");
  const files = readdirSync(server, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".js"),
  );
  expect(files.length).toBeGreaterThan(2);
  for (const file of files) {
    const text = readFileSync(join(server, file), "utf8");
    expect(text, file).not.toMatch(/\brequire\b|from\s*"(node:|fs|zlib|stream)/);
  }
});

it("ships no private name #_, which Turbopack's parser rejects as a duplicate", () => {
  const dist = join(element, "dist");
  const files = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".js"),
  );
  expect(files.length).toBeGreaterThan(4);
  for (const file of files) {
    expect(readFileSync(join(dist, file), "utf8"), file).not.toMatch(/#_(?![\w$])/);
  }
});
