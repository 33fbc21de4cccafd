import { describe, expect, it } from "vitest";
import type { MedusaContainer } from "@medusajs/framework/types";
import checkPluginOptionsOnStart from "./check-plugin-options";

const start = (options: Record<string, unknown> | undefined) =>
  checkPluginOptionsOnStart({ container: {} as MedusaContainer, options });

describe("the plugin's options at startup", () => {
  it("starts with no options, and with right ones in every section", async () => {
    await expect(start(undefined)).resolves.toBeUndefined();
    await expect(
      start({
        fairness: { clientCreatesPerMinute: 30, trustProxyHops: 0 },
        notifications: { enabled: true, codeMailWindowMinutes: 60 },
        stream: { maxConnections: 500 },
        alerts: { enabled: true, to: ["financeiro@loja.com.br"] },
      }),
    ).resolves.toBeUndefined();
  });

  it("stops the start naming every wrong field of every section, in one message", async () => {
    const failure = start({
      fairness: { clientCreatesPerMinute: 0 },
      notifications: { codeMailWindowMinutes: "30" },
      stream: { keepAliveMs: 10 },
    });
    await expect(failure).rejects.toMatchObject({ code: "invalid_options" });
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain("fairness.clientCreatesPerMinute");
    expect(message).toContain("notifications.codeMailWindowMinutes");
    expect(message).toContain("stream.keepAliveMs");
    expect(message).not.toContain("alerts");
  });

  it("names a section that is not an object", async () => {
    await expect(start({ fairness: 3 })).rejects.toThrow(/fairness: /);
  });
});
