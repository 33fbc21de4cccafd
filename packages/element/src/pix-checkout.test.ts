import { afterEach, describe, expect, it } from "vitest";
import {
  mount,
  newId,
  partText,
  pixSession,
  putSession,
  shadow,
  unmountAll,
} from "../test-support/control.js";

afterEach(unmountAll);

describe("<pix-checkout> Pix view", () => {
  it("shows the amount in reais and the copy-and-paste code once the session loads", async () => {
    const id = newId("load");
    await putSession(pixSession(id));
    const el = mount(id);
    await expect.poll(() => partText(el, "amount")).toBe("R$ 123,45");
    expect(shadow(el).querySelector<HTMLInputElement>("input")?.value).toContain("br.gov.bcb.pix");
  });
});
