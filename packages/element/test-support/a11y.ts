// What the accessibility tests share: the element in each of its states, and axe-core
// with the rules the README promises. Used by pix-checkout.test.ts (every engine, the
// page's own color scheme) and preferences.test.ts (dark scheme, reduced motion).
import { expect } from "@esm-bundle/chai";
import axe from "axe-core";
import type { PixCheckout } from "../src/pix-checkout.component.js";
import type { CheckoutSession } from "../src/session.js";
import {
  boletoSession,
  eventually,
  mount,
  newId,
  pixSession,
  preparingSession,
  putSession,
  shadow,
  supersede,
} from "./control.js";

/** axe's violations inside `el`, one line each (empty when there are none). */
export const axeViolations = async (el: HTMLElement) => {
  const result = await axe.run(el, {
    runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    rules: { region: { enabled: false } },
  });
  return result.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
};

async function showPendingWith(id: string, session: Partial<CheckoutSession> = {}) {
  await putSession({
    ...(session.method === "boleto" ? boletoSession(id) : pixSession(id)),
    ...session,
  });
  const el = mount(id) as PixCheckout;
  await eventually(() => expect(el.view).to.equal("pending"));
  return { el };
}

/** The element mounted in each of its views, by name. */
export const states: [string, (id: string) => Promise<PixCheckout>][] = [
  [
    "loading",
    async (id) => {
      await putSession(pixSession(id), { fail: { count: 1, mode: "hang" } });
      const el = mount(id) as PixCheckout;
      await el.updateComplete;
      return el;
    },
  ],
  [
    "preparing (390 px)",
    async (id) => {
      await putSession(preparingSession(id));
      const el = mount(id) as PixCheckout;
      el.style.display = "block";
      el.style.width = "390px";
      // The estimate comes with the notice chunk.
      await eventually(() => expect(shadow(el).textContent).to.include("Pronto em"));
      return el;
    },
  ],
  ["pending Pix", async (id) => (await showPendingWith(id)).el],
  [
    "pending boleto",
    async (id) => {
      const { el } = await showPendingWith(id, { method: "boleto" });
      await eventually(() => expect(shadow(el).querySelector("[part=barcode]")).to.not.equal(null));
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
          await eventually(() => expect(el.view).to.equal(status));
          return el;
        },
      ] as [string, (id: string) => Promise<PixCheckout>],
  ),
  [
    "superseded",
    async (id) => {
      const { el } = await showPendingWith(id);
      await supersede(id, pixSession(`${id}_current`));
      // Its button comes with the notice chunk.
      await eventually(() =>
        expect(shadow(el).querySelector("[part~=current-code-button]")).to.not.equal(null),
      );
      return el;
    },
  ],
  [
    "a replaced code paid anyway, its order awaiting the current code",
    async (id) => {
      await putSession(
        pixSession(id, {
          status: "refund_due",
          refund: { amount: 19455, reason: "paid_old_amount" },
          replaced_by: `${id}-current`,
          order: { display_id: 3, payment: "awaiting" },
        }),
      );
      const el = mount(id) as PixCheckout;
      await eventually(() =>
        expect(shadow(el).querySelector("[part~=current-code-button]")).to.not.equal(null),
      );
      return el;
    },
  ],
  [
    "refund due",
    async (id) => {
      const refund = { amount: 12345, reason: "out_of_stock" } as const;
      await putSession(pixSession(id, { status: "refund_due", refund }));
      const el = mount(id) as PixCheckout;
      // Title, amount line, reason line: the last two come with the notice chunk.
      await eventually(() =>
        expect(shadow(el).querySelectorAll("[part=message] p").length).to.equal(3),
      );
      return el;
    },
  ],
  [
    "error",
    async (id) => {
      const el = mount(`${id}_unknown`) as PixCheckout;
      await eventually(() => expect(el.view).to.equal("error"));
      return el;
    },
  ],
];

/** The loading spinner's animation name (`none` when it stands still). */
export async function spinnerAnimation() {
  const id = newId("motion");
  await putSession(pixSession(id), { fail: { count: 1, mode: "hang" } });
  const el = mount(id) as PixCheckout;
  await el.updateComplete;
  return getComputedStyle(shadow(el).querySelector(".spinner") as Element).animationName;
}
