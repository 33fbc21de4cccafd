import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import middlewares from "../../api/middlewares";
import {
  ADMIN_ACTIONS,
  ADMIN_ROUTE_POLICIES,
  PIX_CHECKOUT_POLICIES,
  PIX_CHECKOUT_RESOURCE,
  permissionOf,
} from "./admin-policies";

const apiDir = path.join(__dirname, "..", "..", "api");

/** Every `route.ts` under `dir`, as Medusa's matcher and the HTTP methods it exports. */
function routeFiles(dir: string): { matcher: string; method: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return routeFiles(file);
    if (name !== "route.ts") return [];
    const matcher = `/${path
      .relative(apiDir, dir)
      .split(path.sep)
      .map((segment) => segment.replace(/^\[(\w+)\]$/, ":$1"))
      .join("/")}`;
    const source = readFileSync(file, "utf8");
    return [
      ...source.matchAll(/export (?:async function|const) (GET|POST|PUT|PATCH|DELETE)\b/g),
    ].map(([, method]) => ({ matcher, method: method! }));
  });
}

const key = (route: { matcher: string; method: string }) => `${route.method} ${route.matcher}`;

describe("the admin routes' policies", () => {
  it("names every admin route file's every method once, and nothing that is not a route", () => {
    const files = routeFiles(path.join(apiDir, "admin")).map(key).sort();
    const table = ADMIN_ROUTE_POLICIES.map(key).sort();
    expect(files.length).toBeGreaterThanOrEqual(16);
    expect(table).toEqual(files);
    expect(new Set(table).size).toBe(table.length);
  });

  it("is what api/middlewares.ts hands Medusa: each route and method with its action's policies", () => {
    const routes = middlewares.routes ?? [];
    for (const entry of ADMIN_ROUTE_POLICIES) {
      const declared = routes.filter(
        (route) =>
          route.matcher === entry.matcher &&
          JSON.stringify(route.methods) === JSON.stringify([entry.method]),
      );
      expect(declared, key(entry)).toHaveLength(1);
      expect(declared[0]!.policies, key(entry)).toEqual(ADMIN_ACTIONS[entry.action]);
    }
  });

  it("asks reading payments of every route, and more than that of every one that acts or hands the books out", () => {
    for (const entry of ADMIN_ROUTE_POLICIES) {
      const asked = ADMIN_ACTIONS[entry.action].map(permissionOf);
      expect(asked[0], key(entry)).toBe("payment:read");
      const acts = entry.method !== "GET" || entry.matcher.includes("/reconciliation");
      if (acts) expect(asked.length, key(entry)).toBeGreaterThan(1);
    }
    const own = (operation: string) =>
      ADMIN_ROUTE_POLICIES.filter((e) =>
        ADMIN_ACTIONS[e.action].some(
          (p) => p.resource === PIX_CHECKOUT_RESOURCE && p.operation === operation,
        ),
      ).map(key);
    expect(own("refund")).toEqual(["POST /admin/pix-checkout/charges/:charge_id/refunds"]);
    expect(own("accept")).toEqual(["POST /admin/pix-checkout/charges/:charge_id/accept"]);
    expect(own("resolve")).toEqual(["POST /admin/pix-checkout/charges/:charge_id/resolve"]);
    expect(own("export").sort()).toEqual([
      "GET /admin/pix-checkout/reconciliation",
      "GET /admin/pix-checkout/reconciliation.csv",
      "GET /admin/pix-checkout/reconciliation.ofx",
    ]);
  });

  it("defines with definePolicies exactly the plugin's own operations the routes ask, each name once", () => {
    const asked = new Set(
      Object.values(ADMIN_ACTIONS)
        .flat()
        .filter((p) => p.resource === PIX_CHECKOUT_RESOURCE)
        .map(permissionOf),
    );
    expect(new Set(PIX_CHECKOUT_POLICIES.map(permissionOf))).toEqual(asked);
    const names = PIX_CHECKOUT_POLICIES.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
