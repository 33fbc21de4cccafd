import type { ConfigModule } from "@medusajs/framework/types";
import { z } from "zod";
import { pluginOptionSection } from "../platform/plugin-options";
import { compileTrusted } from "./client-address";

/**
 * `fairness` in the plugin's options: how the create line shares the service's creates among
 * the clients asking for them (README, "Busy minutes"). A client is an address as the network
 * says it (client-address.ts): the socket's peer, or, behind a proxy named in
 * `trustedProxies`, the address that proxy says called it; an IPv6 client is its
 * `/ipv6PrefixLength` network. Carts of one address are served in turn by their e-mail.
 */
export const fairOptionsSchema = z.object({
  /**
   * Proxies whose `X-Forwarded-For` is believed: addresses, CIDRs, or `loopback`, `private`
   * (10/8, 172.16/12, 192.168/16, fc00::/7) and `linklocal`. None by default: a store reached
   * directly must not let a client name its own address. Behind a load balancer, its address
   * (or `private`); behind a CDN too, the CDN's published ranges as well. A storefront server
   * is not named here: it signs the shopper's address instead (`storefrontSecret`).
   */
  trustedProxies: z
    .array(z.string().min(1))
    .default([])
    .superRefine((entries, ctx) => {
      try {
        compileTrusted(entries);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
      }
    }),
  /**
   * Shared with the storefront's server, which signs each shopper's address with it
   * (storefront-signature.ts, header `x-pix-client`): a signed address is the client, from
   * wherever the request comes. A Next.js storefront that calls Medusa from its server sets
   * the same value as `PIX_STOREFRONT_SECRET`; nothing else needs trusting for it. A signed
   * request's create is also vouched for: served before creates nobody vouched for
   * (holding-order.ts), so a flood from many fresh addresses does not push the storefront's
   * shoppers back. Unset, the header is ignored.
   */
  storefrontSecret: z
    .string()
    .min(32, "storefrontSecret must be at least 32 characters (e.g. `openssl rand -hex 32`)")
    .optional(),
  /** An IPv6 client is its network of this many bits (one host usually holds a /64). */
  ipv6PrefixLength: z.number().int().min(32).max(128).default(64),
  /**
   * Creates one address may hold in any minute (sent, or answered less than a minute ago).
   * Past it, the address's carts wait their turn even when the budget has room: the rest of the
   * minute stays for other shoppers. It is also how far one flooding client can push the
   * shoppers after it back, in slots.
   */
  clientCreatesPerMinute: z.number().int().min(1).max(60).default(3),
  /**
   * Creates the line may send at once after a quiet spell (pacing.ts): past them the service's
   * minute is given out evenly, one create every 60 / `createsPerMinute` seconds (1 s for 60), so
   * a flood that arrives first spends the minute as its tokens come, not in a second before the
   * shoppers after it arrive. 30 is half the service's 60: with the reserve below, a flood from
   * fifteen addresses takes its fifteen first codes at once and still leaves fifteen tokens to
   * the shoppers arriving after it, two a second for ten seconds in the flood bench (with 10 and
   * 5, those shoppers waited up to 13 s for a token a second while most of the minute stood
   * unused). At `createsPerMinute` or more the minute goes at once, as the budget alone allows.
   * Creates someone vouched for need no token (pacing.ts).
   */
  burstCreates: z.number().int().min(1).max(60).default(30),
  /**
   * Of the burst and of every minute's budget, the creates only a client holding nothing live
   * may take (a shopper's first code): any other create leaves this many tokens and slots of
   * the minute untaken, so a shopper who arrives mid-flood finds one at once. At most half the
   * burst. 0: none kept.
   */
  firstCodeReserve: z.number().int().min(0).max(30).default(15),
  /**
   * Of every minute's budget, the creates only a vouched shopper may take (the storefront signed
   * her session, or her mailbox has an order paid here): every other shopper's create, a first
   * code too, leaves this many slots of the minute untaken, so a flood from more addresses than
   * the minute holds cannot make a signed shopper wait for the next one. The merchant's own
   * creates (a payment link, a job) take the whole minute. At most a sixth of the budget (none
   * of a budget under 6). 0: none kept (a store whose storefront signs nothing and whose
   * shoppers are all new gets the whole minute for them).
   */
  vouchedReserve: z.number().int().min(0).max(10).default(10),
  /**
   * What one address may hold waiting: its creates waiting in line plus its live unpaid codes
   * (`CreateQueue.holdingOf`); a new session past it gets 429.
   */
  clientWaitingMax: z.number().int().min(1).max(1000).default(20),
  /**
   * How long an unpaid boleto counts as something its client holds (`CreateQueue.holdingOf`),
   * from when its page showed it (from its create, if no page did). A boleto is paid in a bank's
   * app or at a lottery shop, often days later; counted for as long as it is payable, the
   * shoppers behind a carrier's shared address would hold 20 after a busy morning and be
   * refused for the day. 30 minutes is how long a Pix code lives: a boleto then weighs what a
   * code does. A Pix code counts until it is paid or expires, whatever this says.
   */
  boletoHeldMinutes: z.number().int().min(0).max(1440).default(30),
  /** Creates for one e-mail (any address) that may wait in line; a new session past it gets 429. */
  emailWaitingMax: z.number().int().min(1).max(100).default(3),
  /**
   * Creates that may wait in line in all, however many addresses ask: past it a new session
   * gets 429 with `Retry-After`. 300 is five minutes of the service's 60 creates a minute, so
   * no shopper waits on "preparing" longer than that, and each grant's fair order sorts at most
   * this many requests.
   */
  storeWaitingMax: z.number().int().min(1).max(100_000).default(300),
  /**
   * The last places of `storeWaitingMax`, kept for clients holding fewer than
   * `storeReserveBelow` waiting creates: a flood from many addresses, each holding its share,
   * fills only the rest, and the shoppers who come after it (each holding none) still get in.
   * 60 is a minute of the service's creates. At `storeWaitingMax` or more, every place is kept
   * so: no client holds `storeReserveBelow` or more.
   */
  storeReserve: z.number().int().min(0).max(100_000).default(60),
  /**
   * A client holding fewer waiting creates and unpaid codes than this may take a reserved
   * place. A shopper holds none or one; a few shoppers behind one address a few.
   */
  storeReserveBelow: z.number().int().min(1).max(1000).default(3),
  /**
   * Unpaid order-first orders (placed before their Pix or boleto is paid, so their stock is
   * reserved until the code is paid or ends, about 8 days for a boleto) that one client, one
   * mailbox and one payer document (CPF or CNPJ) may each hold. Past it `cart.complete` gets
   * 429 `too_many_unpaid_orders` and no order is made; the shopper can still pay first.
   */
  unpaidOrdersMax: z.number().int().min(1).max(1000).default(3),
  /** Units (item quantities) those unpaid orders may hold, counted the same three ways. */
  unpaidUnitsMax: z.number().int().min(1).max(100_000).default(10),
});

/** Fairness options after defaults. */
export type FairOptions = z.output<typeof fairOptionsSchema>;

/** Reads `fairness` from the plugin's registration; invalid options name the field. */
export function fairOptions(configModule: ConfigModule | undefined): FairOptions {
  return pluginOptionSection(configModule, "fairness", fairOptionsSchema);
}

const compiled = new Map<string, (address: string) => boolean>();

/** `trustedProxies` compiled once per list (the options are read at every session request). */
export function trustedProxiesOf(options: FairOptions): (address: string) => boolean {
  const key = options.trustedProxies.join(",");
  let trusts = compiled.get(key);
  if (!trusts) {
    trusts = compileTrusted(options.trustedProxies);
    compiled.set(key, trusts);
  }
  return trusts;
}
