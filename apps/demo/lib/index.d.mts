import type { Sandbox } from "@pix-checkout/sandbox";

/**
 * Ports the demo listens on. One given here must be free (else `startDemo` throws naming its
 * `npm run demo` flag); one left out is its default when free, else a free port the system
 * picks (see `Demo.movedPorts`). The embedded PostgreSQL's default is 5433 for the first demo
 * of a data folder, 5434 for the second, …; a server already there is reused as that folder's.
 */
export interface DemoPorts {
  /** Medusa: store API, admin at /app, webhooks. Default 9000. */
  store: number;
  /** The Vite storefront. Default 5173. */
  storefront: number;
  /** The payment-service sandbox. Default 4010. */
  sandbox: number;
  /** The embedded PostgreSQL, used only when no database is found. Default 5433. */
  embeddedPostgres: number;
  /** The mailbox's SMTP port, where the store sends its e-mails. Default 1025. */
  mailSmtp: number;
  /** The mailbox's web inbox. Default 1080. */
  mailWeb: number;
}

/** A message in the demo's mailbox, as MailDev's REST API gives it. */
export interface MailboxMessage {
  subject: string;
  to: { address: string; name?: string }[];
  html?: string;
  text?: string;
  attachments?: { contentId?: string; contentType: string; generatedFileName?: string }[];
}

/** The demo's mailbox (MailDev): every e-mail the store sent. */
export interface DemoMailbox {
  /** The web inbox, e.g. http://127.0.0.1:1080 */
  url: string;
  smtpPort: number;
  /** Every message the inbox holds, oldest first. */
  messages(): Promise<MailboxMessage[]>;
  close(): Promise<void>;
}

/** The defaults `npm run demo` uses. */
export declare const defaultPorts: Readonly<DemoPorts>;

/** The `npm run demo` flag that sets each port, e.g. `{ store: "--store-port", … }`. */
export declare const portFlags: Readonly<Record<keyof DemoPorts, string>>;

/** Options of {@link startDemo}; every one is optional. */
export interface StartDemoOptions {
  ports?: Partial<DemoPorts>;
  /** Which variant of the payment service the sandbox plays. Default "a". */
  variant?: "a" | "b";
  /** Use this database (created when missing). Default: DATABASE_URL, then localhost:5432, then embedded. */
  databaseUrl?: string;
  /** Always use the embedded PostgreSQL, even when DATABASE_URL is set or localhost:5432 answers. */
  embeddedPostgres?: boolean;
  /**
   * Name of the database the demo creates on a found server. Default "pix_checkout_demo". A
   * second demo of the same data folder adds `_2` to it (and to the one DATABASE_URL or
   * `databaseUrl` names), so two demos never share a database.
   */
  databaseName?: string;
  /**
   * The data folder. The first demo running from it keeps its logs, mail, seed output, sandbox
   * state and embedded database there; a second one running at the same time uses
   * `<dataDir>/demo-2/` (and database `<name>_2`), and so on. Default apps/demo/.data.
   */
  dataDir?: string;
  /** Sandbox state file; `null` keeps the sandbox in memory (a fresh one every start). */
  sandboxStatePath?: string | null;
  /**
   * Secret token the webhook URL carries and the plugin checks (16+ URL-safe characters).
   * Default: a random one per start; `null` for none.
   */
  webhookSecret?: string | null;
  /** Admin login the seed makes sure exists. */
  admin?: { email?: string; password?: string };
  /** Origins of other storefronts the store's CORS accepts, e.g. ["http://127.0.0.1:3000"]. */
  extraStoreOrigins?: string[];
  /** `false` skips the storefront (API-only tests). */
  storefront?: boolean;
  /** `false` starts no mailbox: the store then writes its messages to its log. */
  mailbox?: boolean;
  /** The mailbox's folder under `dataDir`, kept across runs. Default "mail". */
  mailDirectory?: string;
  /** Progress lines ("migrate ready in 8.2 s"). Default: silent. */
  log?: (message: string) => void;
  /**
   * Serve the admin built (lib/admin-build.mjs): the first start with given settings compiles
   * it at the first visit and builds it in the background; later starts serve that build at
   * once. One demo of a checkout at a time serves a build. `npm run demo` sets it; default false
   * (a test's demo on ports of its own would build an admin nobody opens).
   */
  adminBuild?: boolean;
}

/** What the seed wrote for the demo. */
export interface SeedResult {
  publishableKey: string;
  regionId: string;
  salesChannelId: string;
  paymentProviders: string[];
  admin: { email: string; password: string };
}

/** A running demo. */
export interface Demo {
  urls: {
    store: string;
    admin: string;
    storefront: string | null;
    sandbox: string;
    /** Where the sandbox posts webhooks, with any secret token masked. */
    webhook: string;
    /** The mailbox's web inbox, or null without one. */
    mail: string | null;
  };
  /** The mailbox, or null when started with `mailbox: false`. */
  mailbox: DemoMailbox | null;
  admin: { email: string; password: string };
  publishableKey: string;
  /**
   * The store's `fairness.storefrontSecret`, new each run: a storefront that calls the store
   * from its server (apps/next-storefront) signs each shopper's address with it
   * (`PIX_STOREFRONT_SECRET`). Never give it to a browser.
   */
  storefrontSecret: string;
  regionId: string;
  /** Provider ids enabled on the BRL region, e.g. ["pp_pix_pix-checkout", "pp_boleto_pix-checkout"]. */
  paymentProviders: string[];
  variant: "a" | "b";
  database: { source: "DATABASE_URL" | "localhost:5432" | "embedded"; url: string };
  /** The sandbox's own handle (`startSandbox`'s result): clock, deliveries(), reset(), …. */
  sandbox: Sandbox;
  /**
   * The ports it listens on (the embedded PostgreSQL's only matters when it used one; no
   * mailbox ports without a mailbox).
   */
  ports: Omit<DemoPorts, "mailSmtp" | "mailWeb"> & Partial<Pick<DemoPorts, "mailSmtp" | "mailWeb">>;
  /** Ports whose default was taken, so the system picked a free one instead. */
  movedPorts: (keyof DemoPorts)[];
  /** How the store serves its admin this start. */
  adminBundle: {
    /** "built": opens at once; "compiled": Vite compiles it at the first visit (about 25 s). */
    serving: "built" | "compiled";
    /** Why a demo asked for a built admin compiles it, else null. */
    why: string | null;
    /** The background build for the next start, when one runs. */
    building: Promise<{ built: true; ms: number } | { built: false; why: string }> | null;
  };
  /** 1 for the first demo of its data folder, 2 for a second one running beside it, …. */
  run: number;
  /** This run's folder: mail, seed output, logs, sandbox state, embedded database. */
  dataDir: string;
  /** Each child's log file lives here (under `dataDir/logs`). */
  logDir: string;
  /** Milliseconds each phase took: database, sandbox, migrate, seed, store, storefront. */
  timings: Record<string, number>;
  /** Milliseconds from the call to everything answering. */
  readyInMs: number;
  /**
   * Moves the sandbox's clock by `ms` (its charges expire, its webhooks go), then runs the
   * plugin's reminders at that time; resolves with the time and the pass's report.
   */
  moveClock(ms: number): Promise<{
    at: Date;
    report: { due: number; sent: number; skipped: number; deferred: number; errors: number };
  }>;
  /** Stops every part, newest first; safe to call more than once. */
  stop(): Promise<void>;
}

/** Starts the whole demo; on failure stops what it started and rethrows. */
export declare function startDemo(options?: StartDemoOptions): Promise<Demo>;

/** The `id` of the plugin's provider registration in the demo's medusa-config ("pix-checkout"). */
export declare const providerRegistrationId: string;

/** The plugin's webhook route for that registration: "/hooks/pix-checkout/pix-checkout". */
export declare const webhookPath: string;

/** The webhook URL for a store origin, with an optional secret token. */
export declare function webhookUrl(storeOrigin: string, secret?: string): string;
