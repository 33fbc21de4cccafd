import type { Sandbox } from "@pix-checkout/sandbox";

export interface VendureDemoOptions {
  /** Where every server listens (127.0.0.1). */
  host?: string;
  ports?: Partial<{ store: number; sandbox: number; storefront: number; postgres: number }>;
  /** A PostgreSQL to use; else DATABASE_URL, localhost:5432, or an embedded one. */
  databaseUrl?: string;
  databaseName?: string;
  /** Where the embedded PostgreSQL and the logs live (apps/vendure-demo/.data/). */
  dataDir?: string;
  log?: (message: string) => void;
  /** Serves Vendure's dashboard with the plugin's screens (built at the first start): true. */
  dashboard?: boolean;
}

export interface VendureDemo {
  /** Where each part listens: the defaults (3100, 4110, 5183) or, when taken, free ones. */
  ports: { store: number; sandbox: number; storefront: number; postgres: number };
  storeUrl: string;
  shopApiUrl: string;
  adminApiUrl: string;
  /** The page a shopper buys on. */
  storefrontUrl: string;
  /**
   * The merchant's dashboard (superadmin / superadmin), null when not asked for; `ready` settles
   * once its build is in place (at once after the first start).
   */
  dashboard: { url: string; ready: Promise<void> } | null;
  sandbox: Sandbox;
  databaseSource: "DATABASE_URL" | "localhost:5432" | "embedded";
  stop: () => Promise<void>;
}

export function startVendureDemo(options?: VendureDemoOptions): Promise<VendureDemo>;
