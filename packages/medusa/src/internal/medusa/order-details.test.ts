import { describe, expect, it } from "vitest";
import { orderDetailsOf, type OrderDetailsRow } from "./order-details";

// What Query hands back for an order paid by Pix: two items, PAC, 5 % off by Pix.
const paidByPix: OrderDetailsRow = {
  id: "order_1",
  version: 1,
  total: 178.5,
  raw_total: { value: "178.5" },
  tax_total: 0,
  items: [
    {
      id: "ordli_2",
      created_at: "2026-11-27T12:00:01Z",
      title: "Caneca",
      product_title: "Caneca",
      variant_title: "Default variant",
      quantity: 1,
      unit_price: 19.9,
      detail: { version: 1 },
      adjustments: [{ code: "DESCONTO-PIX", amount: 1, version: 1 }],
    },
    {
      id: "ordli_1",
      created_at: "2026-11-27T12:00:00Z",
      title: "Camiseta Pix",
      product_title: "Camiseta Pix",
      variant_title: "Azul / M",
      quantity: 2,
      unit_price: 79.9,
      raw_unit_price: { value: "79.9" },
      detail: { version: 1 },
      adjustments: [{ code: "DESCONTO-PIX", amount: 7.99, version: 1 }],
    },
  ],
  shipping_methods: [{ name: "PAC", amount: 7.79, detail: { version: 1 }, adjustments: [] }],
  shipping_address: {
    first_name: "Ana",
    last_name: "Souza",
    address_1: "Rua Augusta, 100",
    address_2: "",
    city: "São Paulo",
    province: "SP",
    postal_code: "01305-000",
    country_code: "br",
  },
};

describe("an order's contents for its shopper's messages", () => {
  it("lists the items, the option, the address, the Pix discount and the total, in cents, adding up", () => {
    const details = orderDetailsOf(paidByPix)!;
    expect(details).toEqual({
      items: [
        {
          name: "Camiseta Pix",
          variant: "Azul / M",
          quantity: 2,
          unit_price_cents: 7990,
          total_cents: 15980,
        },
        { name: "Caneca", variant: null, quantity: 1, unit_price_cents: 1990, total_cents: 1990 },
      ],
      shipping: [{ option: "PAC", amount_cents: 779 }],
      shipping_address: {
        name: "Ana Souza",
        address_1: "Rua Augusta, 100",
        address_2: null,
        city: "São Paulo",
        province: "SP",
        postal_code: "01305-000",
        country_code: "BR",
      },
      pix_discount_cents: 899,
      other_discounts_cents: 0,
      taxes_cents: 0,
      total_cents: 17850,
    });
    // 159,80 + 19,90 + 7,79 − 8,99 = 178,50
    expect(15980 + 1990 + 779 - 899).toBe(details.total_cents);
  });

  it("counts a coupon apart from the Pix discount, and only the order's current version", () => {
    const edited: OrderDetailsRow = {
      ...paidByPix,
      version: 2,
      // 159,80 + 19,90 + 7,79 − 7,99 − 10,00
      total: 169.5,
      raw_total: { value: "169.5" },
      items: [
        {
          ...paidByPix.items![1]!,
          detail: { version: 2 },
          adjustments: [
            { code: "DESCONTO-PIX", amount: 7.99, version: 1 },
            { code: "DESCONTO-PIX", amount: 7.99, version: 2 },
            { code: "CUPOM10", amount: 10, version: 2 },
          ],
        },
        { ...paidByPix.items![0]!, detail: { version: 2 }, adjustments: [] },
      ],
      shipping_methods: [{ name: "PAC", amount: 7.79, detail: { version: 2 }, adjustments: [] }],
    };
    expect(orderDetailsOf(edited)).toMatchObject({
      pix_discount_cents: 799,
      other_discounts_cents: 1000,
      total_cents: 16950,
    });
  });

  it("lists taxes added on top of the prices as their own line", () => {
    const taxed: OrderDetailsRow = {
      id: "order_2",
      total: 46.88,
      tax_total: 6.98,
      items: [{ title: "Livro", quantity: 1, unit_price: 39.9, adjustments: [] }],
    };
    expect(orderDetailsOf(taxed)).toMatchObject({ taxes_cents: 698, total_cents: 4688 });
  });

  it("has no list when the lines do not add up to Medusa's total, or a figure is missing", () => {
    expect(orderDetailsOf({ ...paidByPix, total: 200, raw_total: { value: "200" } })).toBe(
      undefined,
    );
    expect(orderDetailsOf({ ...paidByPix, total: undefined, raw_total: undefined })).toBe(
      undefined,
    );
    expect(
      orderDetailsOf({
        ...paidByPix,
        items: [{ ...paidByPix.items![0]!, unit_price: "abc", raw_unit_price: null }],
      }),
    ).toBe(undefined);
  });

  it("has no address without a street, and names no default variant", () => {
    const details = orderDetailsOf({
      id: "order_3",
      total: 10,
      items: [{ title: "Adesivo", variant_title: "Default", quantity: 1, unit_price: 10 }],
      shipping_address: { city: "Recife", address_1: " " },
    })!;
    expect(details.shipping_address).toBeNull();
    expect(details.items[0]!.variant).toBeNull();
    expect(details.shipping).toEqual([]);
  });
});
