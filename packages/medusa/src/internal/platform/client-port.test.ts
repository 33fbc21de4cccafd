import type * as RealClient from "@pix-checkout/client";
import { describe, expect, it } from "vitest";
import {
  loadClientModule,
  type ClientCharge,
  type ClientCreateChargeInput,
  type ClientModule,
  type PaymentServiceClient,
} from "./client-port";

// The port restates the slice of the client the plugin uses, so the plugin compiles without
// resolving the client's types (see client-port.ts). These checks make `npm run typecheck`
// fail the day the two drift apart: the client must give what the port promises and accept
// what the plugin sends.
type Holds<T extends true> = T;
export type ChargeFitsThePort = Holds<RealClient.Charge extends ClientCharge ? true : false>;
export type InputFitsTheClient = Holds<
  ClientCreateChargeInput extends RealClient.CreateChargeInput ? true : false
>;
export type ClientFitsThePort = Holds<
  RealClient.PixClient extends PaymentServiceClient ? true : false
>;
export const moduleFitsThePort = (real: typeof RealClient): ClientModule => real;

describe("client port", () => {
  it("loads the client's module once, with what the plugin calls", async () => {
    const first = await loadClientModule();
    expect(await loadClientModule()).toBe(first);
    expect(typeof first.PixClient).toBe("function");
    expect(typeof first.parseWebhook).toBe("function");
    expect(first.PixError.prototype).toBeInstanceOf(Error);
  });
});
