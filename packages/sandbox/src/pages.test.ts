import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./test-support/harness.js";

describe.each(["a", "b"] as const)("human page, variant %s", (variant) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      variant,
      webhookUrls: ["http://127.0.0.1:9/closed?token=whsec-page-0123456789abcd"],
      webhookRetryDelaysMs: [],
    });
  });
  afterAll(() => h.close());

  const home = async () => {
    const response = await fetch(`${h.sandbox.url}/`);
    return { response, html: await response.text() };
  };

  it("lists a pending charge with Pay, Expire and Fail buttons bound to its control routes", async () => {
    const id = h.idOf(await h.createPix(1990));
    const { response, html } = await home();
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toContain(id);
    for (const action of ["pay", "expire", "fail"]) {
      expect(html).toContain(`data-action="/__sandbox/charges/${id}/${action}"`);
    }
  });

  it("masks the webhook token in the header and in every delivery row", async () => {
    const id = h.idOf(await h.createPix(1990));
    await h.control("POST", `/charges/${id}/pay`);
    await h.sandbox.webhooksIdle();
    const { html } = await home();
    expect(html).not.toContain("whsec-page-0123456789abcd");
    expect(html).toContain("token=••••abcd");
  });

  it("shows no buttons for a charge in a final state", async () => {
    const id = h.idOf(await h.createPix(1990));
    await h.control("POST", `/charges/${id}/pay`);
    const { html } = await home();
    expect(html).not.toContain(`/__sandbox/charges/${id}/pay`);
  });

  it("escapes charge descriptions", async () => {
    await h.createPix(1990, { description: `"><img src=x onerror=alert(1)>` });
    const { html } = await home();
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
  });

  it("shows the webhook log", async () => {
    await h.control("POST", `/charges/${h.idOf(await h.createPix())}/pay`);
    await h.sandbox.webhooksIdle();
    const { html } = await home();
    expect(html).toContain("charge.paid");
    expect(html).toContain("http://127.0.0.1:9/closed");
  });

  it("lists a processing withdrawal with Complete and Fail buttons", async () => {
    const body = (await h.control("POST", "/withdrawals", { amount: 700 })).body;
    const id = variant === "a" ? body.uuid : body.id;
    const { html } = await home();
    expect(html).toContain(`data-action="/__sandbox/withdrawals/${id}/complete"`);
    expect(html).toContain(`data-action="/__sandbox/withdrawals/${id}/fail"`);
  });

  it("answers 405 in the envelope to a POST on a page", async () => {
    const response = await fetch(`${h.sandbox.url}/`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "method_not_allowed",
    );
  });
});
