import { mkdirSync, readlinkSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adminBuildKey, planAdmin } from "./admin-build.mjs";

// The start that serves a real build, and the build itself, are proven by start-demo.test.mjs;
// here, what decides between them.
async function places() {
  const root = await mkdtemp(join(tmpdir(), "pix-demo-admin-"));
  return { buildsDir: join(root, "builds"), servedPath: join(root, "public", "admin") };
}

/** A finished build of `key`, as the background build leaves it. */
function finishedBuild(buildsDir, key) {
  mkdirSync(join(buildsDir, key), { recursive: true });
  writeFileSync(join(buildsDir, key, "index.html"), "<!doctype html>");
}

describe("the demo's built admin", () => {
  it("is keyed by the store's origin, which the build bakes in", () => {
    const here = adminBuildKey("http://localhost:9000");
    expect(adminBuildKey("http://localhost:9000")).toBe(here);
    expect(adminBuildKey("http://localhost:9100")).not.toBe(here);
  });

  it("is compiled on the first start with these settings, and built in the background for the next", async () => {
    const where = await places();
    const plan = planAdmin({ storeOrigin: "http://localhost:9000", ...where });
    expect(plan).toMatchObject({ serving: "compiled", why: expect.stringMatching(/first start/) });
    expect(plan.serving === "compiled" && typeof plan.build).toBe("function");
  });

  it("is served from its build once there is one, through the link Medusa reads", async () => {
    const where = await places();
    const key = adminBuildKey("http://localhost:9000");
    finishedBuild(where.buildsDir, key);
    const plan = planAdmin({ storeOrigin: "http://localhost:9000", ...where });
    expect(plan.serving).toBe("built");
    expect(readlinkSync(where.servedPath)).toBe(join(where.buildsDir, key));
    if (plan.serving === "built") plan.release();
  });

  it("is served built by one demo of a checkout at a time; the next may once the first stops", async () => {
    const where = await places();
    const other = adminBuildKey("http://localhost:9100");
    finishedBuild(where.buildsDir, adminBuildKey("http://localhost:9000"));
    finishedBuild(where.buildsDir, other);
    const first = planAdmin({ storeOrigin: "http://localhost:9000", ...where });
    expect(first.serving).toBe("built");
    // A second demo on other ports must not move the link under the first one's feet.
    const second = planAdmin({ storeOrigin: "http://localhost:9100", ...where });
    expect(second).toMatchObject({
      serving: "compiled",
      why: expect.stringMatching(/another demo/),
      build: null,
    });
    expect(readlinkSync(where.servedPath)).toBe(
      join(where.buildsDir, adminBuildKey("http://localhost:9000")),
    );
    if (first.serving === "built") first.release();
    const third = planAdmin({ storeOrigin: "http://localhost:9100", ...where });
    expect(third.serving).toBe("built");
    expect(readlinkSync(where.servedPath)).toBe(join(where.buildsDir, other));
    if (third.serving === "built") third.release();
  });
});
