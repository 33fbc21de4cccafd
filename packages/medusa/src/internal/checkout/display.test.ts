import { describe, expect, it } from "vitest";
import { publicOverrides, toDisplayData } from "./display";

describe("toDisplayData", () => {
  it("keeps only display fields of a charge, never its raw response or payer document", () => {
    const charge = {
      id: "ch_svc_1",
      method: "pix" as const,
      status: "pending" as const,
      amountCents: 1990,
      currency: "BRL",
      expiresAt: "2026-01-01T00:00:00Z",
      customer: { name: "Ana", document: "52998224725" },
      pix: { copyPaste: "000201...", qrCodePng: "iVBOR", paymentLink: "https://pay/1" },
      raw: { secret: "sk_live_abc" },
    };
    expect(toDisplayData(charge)).toEqual({
      charge_id: "ch_svc_1",
      method: "pix",
      status: "pending",
      amount_cents: 1990,
      expires_at: "2026-01-01T00:00:00Z",
      pix: { copy_paste: "000201...", qr_code: "iVBOR", payment_link: "https://pay/1" },
    });
  });
});

describe("publicOverrides", () => {
  it("masks a document the storefront sent so Medusa's merge cannot publish it", () => {
    expect(publicOverrides({ document: "529.982.247-25", phone: "11987654321" })).toEqual({
      document: "*********25",
    });
  });
});
