/** How the demo store's PostgreSQL was found (database.mjs). */
export interface Database {
  /** The connection string the store gets. */
  url: string;
  source: "DATABASE_URL" | "localhost:5432" | "embedded";
  /** Stops what the demo started (the embedded server); a database it found is left running. */
  stop: () => Promise<void>;
}

export function resolveDatabase(options: {
  databaseUrl?: string;
  embedded?: boolean;
  databaseName: string;
  embeddedPort: number;
  embeddedDataDir: string;
  logDir: string;
  log: (message: string) => void;
}): Promise<Database>;

export function ensureDatabase(url: string): Promise<void>;
export function redactUrl(url: string): string;
export function canConnect(host: string, port: number): Promise<boolean>;
