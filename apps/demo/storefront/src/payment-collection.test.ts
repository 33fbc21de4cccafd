import { describe, expect, it } from "vitest";
import { paymentCollectionPage } from "./payment-collection";

const STORE = "http://localhost:9000";

describe("paymentCollectionPage", () => {
  it("sends Medusa's copied payment link to the plugin's page on the store, ids and all", () => {
    expect(
      paymentCollectionPage(
        "/payment-collection/pay_col_01JX3Q8Z2K4T0M9V6R7W5Y1N2B",
        "?order_id=order_01JX3Q8Z2K4T0M9V6R7W5Y1N2C",
        `${STORE}/`,
      ),
    ).toBe(
      `${STORE}/pix-checkout/payment-collection/pay_col_01JX3Q8Z2K4T0M9V6R7W5Y1N2B?order_id=order_01JX3Q8Z2K4T0M9V6R7W5Y1N2C`,
    );
  });

  it("never carries anything but Medusa's ids to the store: the store's page says the link is not valid", () => {
    expect(
      paymentCollectionPage("/payment-collection/x%22%3E%3Cscript%3E", "?order_id=<b>", STORE),
    ).toBe(`${STORE}/pix-checkout/payment-collection/invalid?order_id=`);
  });

  it("is nothing for the storefront's other paths", () => {
    for (const path of [
      "/",
      "/pagar/payses_1",
      "/payment-collection/",
      "/payment-collection/a/b",
    ]) {
      expect(paymentCollectionPage(path, "", STORE)).toBeNull();
    }
  });
});
