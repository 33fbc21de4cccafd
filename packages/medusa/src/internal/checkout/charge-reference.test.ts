import { describe, expect, it } from "vitest";
import { chargeDescription, chargeReference } from "./charge-reference";

describe("chargeDescription", () => {
  it("names the session a merchant can search for in Medusa", () => {
    expect(chargeDescription("payses_01ABC", "pix")).toBe("Pagamento Pix (ref payses_01ABC)");
    expect(chargeDescription("payses_01ABC", "boleto")).toBe("Pagamento boleto (ref payses_01ABC)");
  });

  it("keeps the storefront's text and always ends with the reference", () => {
    const long = "Pedido 1234 ".repeat(60);
    const description = chargeDescription("payses_01ABC", "pix", long);
    expect(description.endsWith(chargeReference("payses_01ABC"))).toBe(true);
    expect(description.startsWith("Pedido 1234")).toBe(true);
    expect(description.length).toBeLessThanOrEqual(200 + " (ref payses_01ABC)".length);
  });

  it("is a token that a longer session id containing this one does not match", () => {
    const theirs = chargeDescription("payses_01ABCD", "pix");
    expect(theirs.includes(chargeReference("payses_01ABC"))).toBe(false);
    expect(theirs.includes("payses_01ABC")).toBe(true);
  });
});
