import axe from "axe-core";
import jsQR from "jsqr";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commands, page, userEvent } from "vitest/browser";
import {
  BOLETO_LINE,
  boletoSession,
  closeStreams,
  mount,
  newId,
  nextEvent,
  openStreams,
  partText,
  patchBehaviour,
  patchSession,
  PIX_CODE,
  pixSession,
  putSession,
  requestLog,
  shadow,
  unmountAll,
} from "../test-support/control.js";
import type { FakeBehaviour } from "../test-support/fake-backend.js";
import type {
  PixCopyDetail,
  PixErrorDetail,
  PixExpiredDetail,
  PixPaidDetail,
  PixStatusChangeDetail,
} from "./events.js";
import type { PixCheckout } from "./pix-checkout.component.js";
import "./pix-checkout.js";
import type { CheckoutSession } from "./session.js";

afterEach(() => {
  unmountAll();
  vi.restoreAllMocks();
});

const $ = <T extends Element = HTMLElement>(el: HTMLElement, selector: string) =>
  shadow(el).querySelector<T>(selector);
const button = (el: HTMLElement, part: string) => $<HTMLButtonElement>(el, `[part~="${part}"]`);
const announced = (el: HTMLElement) => partText(el, "status");

/** Mounts the element on a new session and waits until it shows the pending view. */
async function showPending(
  label: string,
  session: Partial<CheckoutSession> = {},
  behaviour: FakeBehaviour = {},
  attrs: Record<string, string> = {},
) {
  const id = newId(label);
  const base = session.method === "boleto" ? boletoSession(id) : pixSession(id);
  await putSession({ ...base, ...session }, behaviour);
  const el = mount(id, attrs);
  await expect.poll(() => (el as PixCheckout).view).toBe("pending");
  return { id, el: el as PixCheckout };
}

/** Waits for the QR image to be decoded and painted. */
async function qrImage(el: HTMLElement) {
  await expect.poll(() => $<HTMLImageElement>(el, "[part=qr] img")?.src ?? "").not.toBe("");
  const img = $<HTMLImageElement>(el, "[part=qr] img") as HTMLImageElement;
  await img.decode();
  return img;
}

/** Screenshots `target` in the real browser and decodes the QR code in the picture. */
async function decodeScreenshot(target: Element): Promise<string | undefined> {
  const png = await page.screenshot({ element: target, save: false });
  const img = new Image();
  img.src = `data:image/png;base64,${png}`;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const ctx = canvas.getContext("2d") as CanvasRenderingContext2D;
  ctx.drawImage(img, 0, 0);
  const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR(data, width, height)?.data;
}

describe("Pix view", () => {
  it("shows the amount in reais and the copy-and-paste code once the session loads", async () => {
    const { el } = await showPending("load");
    expect(partText(el, "amount")).toBe("R$ 123,45");
    expect($<HTMLInputElement>(el, "input")?.value).toBe(PIX_CODE);
  });

  it("draws a QR that a scanner reads back as the copy-and-paste code when the backend has no image", async () => {
    const { el, id } = await showPending("qr-local");
    await qrImage(el);
    expect(await decodeScreenshot($(el, "[part=qr]") as Element)).toBe(PIX_CODE);
    expect(await requestLog(id)).not.toContain("GET qr.svg");
  });

  it("shows the backend's QR image, fetched with the publishable key, and it scans as the code", async () => {
    const { el, id } = await showPending("qr-backend", {
      pix: { copy_paste: PIX_CODE, qr_image_url: "" },
    });
    await patchSession(id, {
      pix: { copy_paste: PIX_CODE, qr_image_url: `/store/pix-checkout/sessions/${id}/qr.svg` },
    });
    await expect.poll(() => requestLog(id)).toContain("GET qr.svg");
    await expect.poll(() => $<HTMLImageElement>(el, "[part=qr] img")?.src ?? "").toMatch(/^blob:/);
    await qrImage(el);
    expect(await decodeScreenshot($(el, "[part=qr]") as Element)).toBe(PIX_CODE);
  });

  it("never shows the previous session's QR after session-id changes", async () => {
    const { el } = await showPending("qr-first");
    await qrImage(el);
    const id = newId("qr-second");
    const pix = {
      copy_paste: "another code",
      qr_image_url: `/store/pix-checkout/sessions/${id}/qr.svg`,
    };
    await putSession(pixSession(id, { pix }), { qr: "hang" });
    el.setAttribute("session-id", id);
    await expect.poll(() => el.session?.session_id).toBe(id);
    await el.updateComplete;
    expect(el.view).toBe("pending");
    expect($(el, "[part=qr] img")).toBeNull();
  });

  it("labels the QR as an image with the amount to pay", async () => {
    const { el } = await showPending("qr-label");
    const qr = $(el, "[part=qr]");
    expect(qr?.getAttribute("role")).toBe("img");
    expect(qr?.getAttribute("aria-label")).toBe("QR code Pix para pagar R$\u00a0123,45");
  });

  it("counts down by the backend's clock when the device clock is five minutes behind", async () => {
    const ahead = 5 * 60_000;
    const { el } = await showPending(
      "skew-ahead",
      { expires_at: new Date(Date.now() + ahead + 10 * 60_000).toISOString() },
      { clockOffsetMs: ahead },
    );
    expect(partText(el, "countdown")).toMatch(/^Expira em (10:00|9:5\d)$/);
  });

  it("counts down by the backend's clock when the device clock is five minutes ahead", async () => {
    const behind = -5 * 60_000;
    const { el } = await showPending(
      "skew-behind",
      { expires_at: new Date(Date.now() + behind + 10 * 60_000).toISOString() },
      { clockOffsetMs: behind },
    );
    expect(partText(el, "countdown")).toMatch(/^Expira em (10:00|9:5\d)$/);
  });
});

describe("status transitions", () => {
  it("announces the payment, fires pix-status-change and pix-paid, and shows the success state when paid", async () => {
    const { el, id } = await showPending("paid");
    const change = nextEvent<PixStatusChangeDetail>(el, "pix-status-change");
    const paid = nextEvent<PixPaidDetail>(el, "pix-paid");
    await patchSession(id, { status: "paid", paid_at: new Date().toISOString() });
    expect(await change).toMatchObject({ status: "paid", previous: "pending" });
    expect((await paid).session.session_id).toBe(id);
    await expect.poll(() => el.view).toBe("paid");
    expect(partText(el, "message")).toContain("Pagamento confirmado");
    expect(announced(el)).toBe("Pagamento confirmado");
  });

  it("shows the expired state without a QR and fires pix-expired when the backend expires the session", async () => {
    const { el, id } = await showPending("expired");
    const expired = nextEvent<PixExpiredDetail>(el, "pix-expired");
    await patchSession(id, { status: "expired" });
    expect((await expired).source).toBe("server");
    await expect.poll(() => el.view).toBe("expired");
    expect($(el, "[part=qr]")).toBeNull();
    expect(announced(el)).toBe("Código expirado");
  });

  it("hides the QR and fires pix-expired when the skew-corrected countdown ends before the backend says so", async () => {
    const id = newId("clock");
    await putSession(pixSession(id, { expires_at: new Date(Date.now() + 1500).toISOString() }));
    const el = mount(id) as PixCheckout;
    const expired = await nextEvent<PixExpiredDetail>(el, "pix-expired");
    expect(expired.source).toBe("clock");
    await el.updateComplete;
    expect(el.view).toBe("expired");
    expect($(el, "[part=qr]")).toBeNull();
  });

  it("shows the failed state when the payment fails", async () => {
    const { el, id } = await showPending("failed");
    await patchSession(id, { status: "failed" });
    await expect.poll(() => partText(el, "message")).toContain("Pagamento não concluído");
  });

  it("shows the canceled state when the session is canceled", async () => {
    const { el, id } = await showPending("canceled");
    await patchSession(id, { status: "canceled" });
    await expect.poll(() => partText(el, "message")).toContain("Pagamento cancelado");
  });

  it("closes its stream once the session is paid", async () => {
    const { el, id } = await showPending("final-close");
    await expect.poll(() => openStreams(id)).toBe(1);
    await patchSession(id, { status: "paid" });
    await expect.poll(() => el.view).toBe("paid");
    await expect.poll(() => openStreams(id)).toBe(0);
  });

  it("stops listening when removed and picks up again when put back in the page", async () => {
    const { el, id } = await showPending("moved");
    await expect.poll(() => openStreams(id)).toBe(1);
    el.remove();
    await expect.poll(() => openStreams(id)).toBe(0);
    document.body.append(el);
    await expect
      .poll(() => requestLog(id))
      .toEqual(["GET status", "GET stream", "GET status", "GET stream"]);
    await patchSession(id, { status: "paid" });
    await expect.poll(() => el.view).toBe("paid");
  });

  it("falls back to polling and still shows the payment when the backend has no stream", async () => {
    const { el, id } = await showPending("polling", {}, { stream: "missing" });
    await patchSession(id, { status: "paid" });
    await expect.poll(() => el.view, { timeout: 5000 }).toBe("paid");
    expect(await requestLog(id)).toEqual(["GET status", "GET stream", "GET status"]);
  });

  it("reconnects after the server drops the stream and shows a payment that arrives afterwards", async () => {
    const { el, id } = await showPending("reconnect");
    await closeStreams(id);
    await expect
      .poll(async () => (await requestLog(id)).filter((r) => r === "GET stream").length, {
        timeout: 5000,
      })
      .toBe(2);
    await patchSession(id, { status: "paid" });
    await expect.poll(() => el.view).toBe("paid");
  });
});

describe("errors", () => {
  it("shows a retry state, not a blank, when the backend cannot be reached, and recovers on retry", async () => {
    const id = newId("offline");
    await putSession(pixSession(id), { fail: { count: 1000, mode: "http" } });
    const el = mount(id) as PixCheckout;
    const error = await nextEvent<PixErrorDetail>(el, "pix-error");
    expect(error.code).toBe("server_error");
    await expect.poll(() => el.view).toBe("error");
    expect(partText(el, "message")).toContain("Não foi possível carregar o pagamento");
    await patchBehaviour(id, { fail: { count: 0, mode: "http" } });
    // A direct click: the element's own 2 s retry must not win the race to the button.
    button(el, "retry-button")?.click();
    await expect.poll(() => el.view).toBe("pending");
    expect(await requestLog(id)).toEqual(["GET status", "GET status", "GET stream"]);
  });

  it("keeps the code on screen and says it is reconnecting when the connection drops later", async () => {
    const { el, id } = await showPending("drop-later", {}, { stream: "missing" });
    await patchBehaviour(id, { fail: { count: 1000, mode: "http" } });
    await expect
      .poll(() => el.shadowRoot?.textContent, { timeout: 5000 })
      .toContain("Sem conexão. Tentando de novo…");
    expect(el.view).toBe("pending");
    expect($<HTMLInputElement>(el, "input")?.value).toBe(PIX_CODE);
  });

  it("says the payment was not found and fires pix-error not_found for an unknown session", async () => {
    const el = mount(newId("missing")) as PixCheckout;
    const error = await nextEvent<PixErrorDetail>(el, "pix-error");
    expect(error).toMatchObject({ code: "not_found", status: 404 });
    await expect.poll(() => partText(el, "message")).toContain("Pagamento não encontrado.");
  });

  it("fires pix-error unauthorized when the publishable key is refused", async () => {
    const id = newId("badkey");
    await putSession(pixSession(id));
    const el = mount(id, { "publishable-key": "pk_wrong" });
    expect((await nextEvent<PixErrorDetail>(el, "pix-error")).code).toBe("unauthorized");
  });
});

describe("sharing", () => {
  it("offers Web Share where the browser has it and shares the code", async () => {
    const share = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "share", { configurable: true, value: share });
    try {
      const { el } = await showPending("share");
      await userEvent.click(button(el, "share-button") as HTMLElement);
      expect(share).toHaveBeenCalledWith(expect.objectContaining({ text: PIX_CODE }));
    } finally {
      delete (navigator as { share?: unknown }).share;
    }
  });

  it("offers no share button where the browser has no Web Share", async () => {
    const { el } = await showPending("no-share");
    expect("share" in navigator).toBe(false);
    expect(button(el, "share-button")).toBeNull();
  });
});

describe("I already paid", () => {
  it("asks the backend to re-check and shows the payment it finds", async () => {
    const { el, id } = await showPending(
      "refresh-paid",
      {},
      { refresh: { patch: { status: "paid" } } },
    );
    const paid = nextEvent<PixPaidDetail>(el, "pix-paid");
    await userEvent.click(button(el, "refresh-button") as HTMLElement);
    await paid;
    await expect.poll(() => el.view).toBe("paid");
    expect(await requestLog(id)).toContain("POST refresh");
  });

  it("keeps keyboard focus in the element, on the success message, when the focused button goes away", async () => {
    const { el, id } = await showPending("refresh-focus");
    button(el, "refresh-button")?.focus();
    await patchSession(id, { status: "paid" });
    await expect.poll(() => el.view).toBe("paid");
    await el.updateComplete;
    expect(shadow(el).activeElement).toBe($(el, "[part=message]"));
  });

  it("says the payment has not arrived yet when the re-check finds nothing", async () => {
    const { el } = await showPending("refresh-pending");
    await userEvent.click(button(el, "refresh-button") as HTMLElement);
    await expect.poll(() => announced(el)).toBe("Ainda não recebemos o pagamento.");
  });

  it("says it is reconnecting and fires pix-error when the re-check cannot reach the backend", async () => {
    const { el, id } = await showPending("refresh-down");
    await patchBehaviour(id, { fail: { count: 5, mode: "http" } });
    const error = nextEvent<PixErrorDetail>(el, "pix-error");
    await userEvent.click(button(el, "refresh-button") as HTMLElement);
    expect(await error).toMatchObject({ code: "server_error", status: 503 });
    await expect.poll(() => announced(el)).toBe("Sem conexão. Tentando de novo…");
  });

  it("obeys the backend's Retry-After on a 429 and does not ask again before it", async () => {
    const { el, id } = await showPending("refresh-429", {}, { refresh: { retryAfter: 7 } });
    await userEvent.click(button(el, "refresh-button") as HTMLElement);
    await expect.poll(() => announced(el)).toBe("Aguarde 7 s para verificar de novo.");
    await userEvent.click(button(el, "refresh-button") as HTMLElement);
    await expect.poll(() => announced(el)).toMatch(/^Aguarde [67] s para verificar de novo\.$/);
    expect((await requestLog(id)).filter((r) => r === "POST refresh")).toHaveLength(1);
  });
});

describe("rate limit without CORS exposure", () => {
  it("waits 10 s when the page cannot read Retry-After because CORS does not expose it", async () => {
    const { el } = await showPending(
      "refresh-hidden-429",
      {},
      { refresh: { retryAfter: 3, exposeRetryAfter: false } },
    );
    await userEvent.click(button(el, "refresh-button") as HTMLElement);
    await expect.poll(() => announced(el)).toBe("Aguarde 10 s para verificar de novo.");
  });
});

describe("copy", () => {
  it("copies the code with the Clipboard API and says so only afterwards", async () => {
    const { el } = await showPending("copy-api");
    await navigator.clipboard.writeText("before");
    const copied = nextEvent<PixCopyDetail>(el, "pix-copy");
    await userEvent.click(button(el, "copy-button") as HTMLElement);
    expect(await copied).toEqual({ kind: "pix", text: PIX_CODE, via: "clipboard" });
    expect(await navigator.clipboard.readText()).toBe(PIX_CODE);
    await expect.poll(() => partText(el, "copy-button")).toBe("Copiado!");
  });

  it("falls back to selection and execCommand('copy') when the Clipboard API refuses", async () => {
    const { el } = await showPending("copy-exec");
    await navigator.clipboard.writeText("before");
    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(
      new DOMException("denied", "NotAllowedError"),
    );
    const copied = nextEvent<PixCopyDetail>(el, "pix-copy");
    await userEvent.click(button(el, "copy-button") as HTMLElement);
    expect((await copied).via).toBe("exec-command");
    expect(await navigator.clipboard.readText()).toBe(PIX_CODE);
  });

  it("selects the code for a manual copy and never says copied when both routes fail", async () => {
    const { el } = await showPending("copy-manual");
    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(
      new DOMException("denied", "NotAllowedError"),
    );
    vi.spyOn(document, "execCommand").mockReturnValue(false);
    const events: PixCopyDetail[] = [];
    el.addEventListener("pix-copy", (e) => events.push(e.detail));
    await userEvent.click(button(el, "copy-button") as HTMLElement);
    await expect.poll(() => announced(el)).toBe("Código selecionado. Copie manualmente.");
    const input = $<HTMLInputElement>(el, "input") as HTMLInputElement;
    expect(shadow(el).activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, PIX_CODE.length]);
    expect(partText(el, "copy-button")).toBe("Copiar código");
    expect(events).toEqual([]);
  });

  it("copies from the keyboard: Tab to the copy button, then Enter", async () => {
    const { el } = await showPending("copy-keys");
    await navigator.clipboard.writeText("before");
    $<HTMLInputElement>(el, "input")?.focus();
    await userEvent.tab();
    expect(shadow(el).activeElement).toBe(button(el, "copy-button"));
    const copied = nextEvent<PixCopyDetail>(el, "pix-copy");
    await userEvent.keyboard("{Enter}");
    await copied;
    expect(await navigator.clipboard.readText()).toBe(PIX_CODE);
  });
});

describe("boleto view", () => {
  it("shows the digitable line grouped as banks print it, and copies only its digits", async () => {
    const { el } = await showPending("boleto-line", { method: "boleto" });
    await expect
      .poll(() => $<HTMLInputElement>(el, "input")?.value)
      .toBe("00190.50095 40144.816069 06809.350314 3 37370000000100");
    await userEvent.click(button(el, "copy-button") as HTMLElement);
    expect(await navigator.clipboard.readText()).toBe(BOLETO_LINE);
  });

  it("draws the barcode as inline SVG bars with no image request, labelled for screen readers", async () => {
    const { el } = await showPending("boleto-bars", { method: "boleto" });
    await expect.poll(() => $(el, "[part=barcode] path")).not.toBeNull();
    const barcode = $(el, "[part=barcode]") as HTMLElement;
    expect(barcode.getAttribute("role")).toBe("img");
    expect(barcode.getAttribute("aria-label")).toBe("Código de barras do boleto");
    // 44 digits = 22 pairs of 5 bars, plus 2 start bars and 2 stop bars.
    expect(barcode.querySelector("path")?.getAttribute("d")?.match(/M/g)).toHaveLength(22 * 5 + 4);
    expect(shadow(el).querySelector("img")).toBeNull();
  });

  it("links the boleto PDF in a new tab and shows the due date", async () => {
    const { el } = await showPending("boleto-link", { method: "boleto" });
    await expect.poll(() => partText(el, "due-date")).toBe("Vencimento: 31 de janeiro de 2030");
    const link = $<HTMLAnchorElement>(el, "[part~=boleto-link]") as HTMLAnchorElement;
    expect(link.href).toBe("https://bank.example/boleto/123.pdf");
    expect(link.target).toBe("_blank");
    expect(link.rel).toBe("noopener");
  });
});

describe("untrusted data", () => {
  it("shows no PDF link when the boleto URL is not http(s), so javascript: never becomes a link", async () => {
    const id = newId("boleto-js");
    const session = boletoSession(id);
    await putSession({ ...session, boleto: { ...session.boleto!, url: "javascript:alert(1)" } });
    const el = mount(id) as PixCheckout;
    await expect.poll(() => $(el, "[part=barcode]")).not.toBeNull();
    expect($(el, "a")).toBeNull();
  });
});

describe("languages", () => {
  it("speaks Brazilian Portuguese by default", async () => {
    const { el } = await showPending("pt");
    expect(partText(el, "header")).toContain("Pague com Pix");
    expect(partText(el, "refresh-button")).toBe("Já paguei");
  });

  it("speaks English with lang=en", async () => {
    const { el } = await showPending("en", {}, {}, { lang: "en" });
    await expect.poll(() => partText(el, "header")).toContain("Pay with Pix");
    expect(partText(el, "refresh-button")).toBe("I already paid");
    expect(partText(el, "countdown")).toMatch(/^Expires in /);
  });

  it("speaks Spanish with lang=es-419", async () => {
    const { el } = await showPending("es", {}, {}, { lang: "es-419" });
    await expect.poll(() => partText(el, "header")).toContain("Paga con Pix");
    expect(partText(el, "refresh-button")).toBe("Ya pagué");
  });

  it("shows the boleto view in Spanish with lang=es", async () => {
    const { el } = await showPending("es-boleto", { method: "boleto" }, {}, { lang: "es" });
    await expect.poll(() => partText(el, "header")).toContain("Paga con boleto");
    expect(shadow(el).querySelector("label")?.textContent).toBe("Línea digitable");
    expect(partText(el, "due-date")).toBe("Vencimiento: 31 de enero de 2030");
  });

  it("announces status changes in the element's language", async () => {
    const { el, id } = await showPending("en-paid", {}, {}, { lang: "en" });
    await patchSession(id, { status: "paid" });
    await expect.poll(() => announced(el)).toBe("Payment confirmed");
  });

  it("falls back to Brazilian Portuguese for a language it does not speak", async () => {
    const { el } = await showPending("fr", {}, {}, { lang: "fr" });
    expect(partText(el, "header")).toContain("Pague com Pix");
  });

  it("switches language live when lang changes", async () => {
    const { el } = await showPending("switch");
    el.setAttribute("lang", "en");
    await expect.poll(() => partText(el, "refresh-button")).toBe("I already paid");
  });
});

describe("motion", () => {
  const spinnerAnimation = async () => {
    const id = newId("motion");
    await putSession(pixSession(id), { fail: { count: 1, mode: "hang" } });
    const el = mount(id) as PixCheckout;
    await el.updateComplete;
    return getComputedStyle($(el, ".spinner") as Element).animationName;
  };

  it("spins the loading indicator by default", async () => {
    expect(await spinnerAnimation()).not.toBe("none");
  });

  it("keeps the loading indicator still when the user prefers reduced motion", async () => {
    await commands.emulateMedia({ reducedMotion: "reduce" });
    try {
      expect(await spinnerAnimation()).toBe("none");
    } finally {
      await commands.emulateMedia({ reducedMotion: "no-preference" });
    }
  });
});

describe("accessibility", () => {
  const run = async (el: HTMLElement) => {
    const result = await axe.run(el, {
      runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      rules: { region: { enabled: false } },
    });
    return result.violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
  };

  const states: [string, (id: string) => Promise<PixCheckout>][] = [
    [
      "loading",
      async (id) => {
        await putSession(pixSession(id), { fail: { count: 1, mode: "hang" } });
        const el = mount(id) as PixCheckout;
        await el.updateComplete;
        return el;
      },
    ],
    ["pending Pix", async (id) => (await showPendingWith(id)).el],
    [
      "pending boleto",
      async (id) => {
        const { el } = await showPendingWith(id, { method: "boleto" });
        await expect.poll(() => $(el, "[part=barcode]")).not.toBeNull();
        return el;
      },
    ],
    ...(["paid", "expired", "failed", "canceled"] as const).map(
      (status) =>
        [
          status,
          async (id: string) => {
            await putSession(pixSession(id, { status }));
            const el = mount(id) as PixCheckout;
            await expect.poll(() => el.view).toBe(status);
            return el;
          },
        ] as [string, (id: string) => Promise<PixCheckout>],
    ),
    [
      "error",
      async (id) => {
        const el = mount(`${id}_unknown`) as PixCheckout;
        await expect.poll(() => el.view).toBe("error");
        return el;
      },
    ],
  ];

  async function showPendingWith(id: string, session: Partial<CheckoutSession> = {}) {
    await putSession({
      ...(session.method === "boleto" ? boletoSession(id) : pixSession(id)),
      ...session,
    });
    const el = mount(id) as PixCheckout;
    await expect.poll(() => el.view).toBe("pending");
    return { el };
  }

  it.each(states)("axe finds no violations in the %s state", async (_name, show) => {
    const el = await show(newId("axe"));
    expect(await run(el)).toEqual([]);
  });

  it.each(states)(
    "axe finds no violations in the %s state with the dark color scheme",
    async (_name, show) => {
      await commands.emulateMedia({ colorScheme: "dark" });
      try {
        expect(matchMedia("(prefers-color-scheme: dark)").matches).toBe(true);
        const el = await show(newId("axe-dark"));
        expect(await run(el)).toEqual([]);
      } finally {
        await commands.emulateMedia({ colorScheme: "light" });
      }
    },
  );
});
