import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { Charges, type ChargeRow } from "../../records/charges";
import type { PluginLogger } from "../../platform/logger";
import { CHARGE_CHANNEL } from "../../records/charge-channel";

export { CHARGE_CHANNEL };

/** Called with the session's current row (undefined when it no longer exists). */
export type SessionListener = (row: ChargeRow | undefined) => void;

/** Tunables of one hub. */
export interface HubOptions {
  /** Open streams this instance accepts; more get 503 `stream_limit_reached`. */
  maxConnections: number;
  /** Table poll period while the LISTEN connection is down. */
  pollIntervalMs: number;
  /** First reconnect delay of the LISTEN connection; doubles up to 30 s. */
  reconnectMs: number;
}

/** Where change notices currently come from. */
export type HubMode = "idle" | "listen" | "poll";

/** The subset of a pg `Client` the hub uses (knex hands out the real one). */
interface PgClient {
  query(sql: string): Promise<unknown>;
  on(event: "notification", fn: (msg: { channel: string; payload?: string }) => void): void;
  on(event: "error" | "end", fn: (error?: Error) => void): void;
  removeAllListeners(): void;
}

interface KnexPgClient {
  acquireRawConnection(): Promise<PgClient>;
  destroyRawConnection(connection: PgClient): Promise<void>;
}

const LINGER_MS = 30_000;
/** A cached row is re-read after this long even without a notice (a safety net only). */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
const MAX_RECONNECT_MS = 30_000;

/**
 * One per process: fans Postgres change notices out to the open streams of this instance.
 *
 * The truth is always the charge table. The hub holds only who is listening here; on a
 * notice (or, while its LISTEN connection is down, on each poll tick) it re-reads the rows
 * of the sessions concerned, once per session however many streams watch it, and hands
 * them to the listeners. It opens its own connection (outside knex's pool, because LISTEN
 * belongs to one connection) only while someone listens, and closes it after a linger.
 */
export class LiveStatusHub {
  private readonly listeners = new Map<string, Set<SessionListener>>();
  /** How to end each open stream when the process is told to stop. */
  private readonly enders = new Set<() => void>();
  private open = 0;
  private connection: PgClient | undefined;
  private connecting: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay: number;
  private currentMode: HubMode = "idle";
  private closed = false;
  /** Rows read while the channel was up, dropped by the next notice of their session. */
  private readonly rows = new Map<string, { row: ChargeRow | undefined; at: number }>();
  /** Bumped by each notice, so a read that raced a notice is not cached. */
  private readonly generations = new Map<string, number>();
  /** Bumped whenever the whole cache is dropped. */
  private epoch = 0;
  private lastRead = 0;
  /** Where the rows are read; the hub itself only owns the LISTEN connection. */
  private readonly charges: Charges;

  constructor(
    private readonly db: Knex,
    private readonly logger: PluginLogger,
    private readonly options: HubOptions,
  ) {
    this.reconnectDelay = options.reconnectMs;
    this.charges = new Charges(db);
  }

  /** Streams open on this instance. */
  get size(): number {
    return this.open;
  }

  /** `listen` when notices arrive through Postgres, `poll` while that channel is down. */
  get mode(): HubMode {
    return this.currentMode;
  }

  /**
   * Registers a listener for a session. Returns the function that removes it, or
   * undefined when this instance already holds `maxConnections` streams.
   */
  subscribe(
    sessionId: string,
    listener: SessionListener,
    end?: () => void,
  ): (() => void) | undefined {
    if (this.open >= this.options.maxConnections) return undefined;
    if (end) this.enders.add(end);
    let set = this.listeners.get(sessionId);
    if (!set) {
      set = new Set();
      this.listeners.set(sessionId, set);
    }
    set.add(listener);
    this.open += 1;
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    this.ensureChannel();
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      if (end) this.enders.delete(end);
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(sessionId);
      this.open -= 1;
      if (this.open === 0) this.scheduleLinger();
    };
  }

  /**
   * Follows another session on behalf of an open stream (a sibling code of the stream's cart):
   * its listener is called with that session's row on each change, and takes no stream slot,
   * since it lives and ends with the stream that follows it. Returns the function that stops it.
   */
  follow(sessionId: string, listener: SessionListener): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) {
      set = new Set();
      this.listeners.set(sessionId, set);
    }
    set.add(listener);
    this.ensureChannel();
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(sessionId) === set) this.listeners.delete(sessionId);
    };
  }

  /**
   * The session's charge row, for the status route. Served from memory only while the
   * LISTEN channel is up (every change on any instance then evicts the entry within
   * milliseconds) and for at most `CACHE_TTL_MS`; otherwise read from the table. Keeps the
   * channel open while polls keep coming.
   */
  async read(sessionId: string): Promise<ChargeRow | undefined> {
    this.lastRead = Date.now();
    this.ensureChannel();
    if (this.open === 0 && !this.lingerTimer) this.scheduleLinger();
    const hit = this.rows.get(sessionId);
    if (hit && this.currentMode === "listen" && this.lastRead - hit.at < CACHE_TTL_MS) {
      return hit.row;
    }
    const before = this.stamp(sessionId);
    const row = await this.charges.bySessionId(sessionId);
    if (this.currentMode === "listen" && this.stamp(sessionId) === before) {
      if (this.rows.size >= CACHE_MAX_ENTRIES) this.rows.clear();
      this.rows.set(sessionId, { row, at: Date.now() });
    }
    return row;
  }

  /**
   * Ends every open stream (their `end` callbacks). Called on SIGTERM/SIGINT so a deploy's
   * graceful shutdown does not wait for streams that would otherwise stay open for minutes;
   * the element reconnects to another instance.
   */
  endAll(): void {
    for (const end of [...this.enders]) {
      try {
        end();
      } catch {
        // Ending one stream must not keep the others open.
      }
    }
  }

  /** Stops everything (tests, shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.lingerTimer);
    clearTimeout(this.reconnectTimer);
    this.stopPolling();
    await this.dropConnection();
    this.currentMode = "idle";
  }

  /** Re-reads the given sessions (all watched ones by default) and hands out their rows. */
  async sweep(sessionIds: string[] = [...this.listeners.keys()]): Promise<void> {
    const wanted = sessionIds.filter((id) => this.listeners.has(id));
    if (wanted.length === 0) return;
    const bySession = await this.charges.bySessionIds(wanted);
    for (const id of wanted) {
      for (const listener of [...(this.listeners.get(id) ?? [])]) {
        try {
          listener(bySession.get(id));
        } catch {
          // One broken stream must not keep the others from their update.
        }
      }
    }
  }

  private ensureChannel(): void {
    if (this.closed || this.connection || this.connecting || this.reconnectTimer) return;
    this.connecting = this.connect().finally(() => {
      this.connecting = undefined;
    });
  }

  private async connect(): Promise<void> {
    const client = (this.db as unknown as { client: KnexPgClient }).client;
    let connection: PgClient | undefined;
    try {
      connection = await client.acquireRawConnection();
      connection.on("notification", (msg) => {
        if (msg.channel === CHARGE_CHANNEL && msg.payload) this.onNotice(msg.payload);
      });
      const lost = (error?: Error) => this.onLost(connection!, error);
      connection.on("error", lost);
      connection.on("end", lost);
      await connection.query(`LISTEN ${CHARGE_CHANNEL}`);
      if (this.closed) {
        await client.destroyRawConnection(connection).catch(() => undefined);
        return;
      }
      this.connection = connection;
      this.reconnectDelay = this.options.reconnectMs;
      this.stopPolling();
      this.currentMode = "listen";
      // Changes made while nobody listened (or while reconnecting) were not announced.
      await this.sweep().catch(() => undefined);
    } catch (error) {
      if (connection) {
        retire(connection);
        await client.destroyRawConnection(connection).catch(() => undefined);
      }
      this.degrade(error as Error);
    }
  }

  private onNotice(sessionId: string): void {
    this.rows.delete(sessionId);
    this.generations.set(sessionId, (this.generations.get(sessionId) ?? 0) + 1);
    if (this.generations.size > CACHE_MAX_ENTRIES) this.forget();
    if (!this.listeners.has(sessionId)) return;
    this.sweep([sessionId]).catch((error: Error) =>
      this.logger.warn(`live status: could not read session ${sessionId}: ${error.message}`),
    );
  }

  private onLost(connection: PgClient, error?: Error): void {
    if (this.connection !== connection) return;
    this.forget();
    retire(connection);
    this.connection = undefined;
    if (this.closed) return;
    this.degrade(error ?? new Error("connection ended"));
  }

  /** Drops every cached row (the channel went down, so evictions may have been missed). */
  private forget(): void {
    this.rows.clear();
    this.generations.clear();
    this.epoch += 1;
  }

  /** Identifies the notices seen for a session so far. */
  private stamp(sessionId: string): string {
    return `${this.epoch}:${this.generations.get(sessionId) ?? 0}`;
  }

  /** The channel is down: poll the table and try the channel again with backoff. */
  private degrade(error: Error): void {
    this.forget();
    if (this.closed) return;
    if (this.open === 0 && Date.now() - this.lastRead > LINGER_MS) {
      this.currentMode = "idle";
      return;
    }
    this.logger.warn(
      `live status: Postgres LISTEN unavailable (${error.message}); polling every ${this.options.pollIntervalMs} ms until it is back`,
    );
    this.currentMode = "poll";
    this.startPolling();
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, MAX_RECONNECT_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.open > 0 || Date.now() - this.lastRead < LINGER_MS) this.ensureChannel();
    }, delay);
    this.reconnectTimer.unref();
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => {
      this.sweep().catch(() => undefined);
    }, this.options.pollIntervalMs);
    this.pollTimer.unref();
  }

  private stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private scheduleLinger(): void {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = undefined;
      if (this.open > 0) return;
      // Polls still coming keep the channel (and the cache) alive.
      if (Date.now() - this.lastRead < LINGER_MS) return this.scheduleLinger();
      this.forget();
      this.stopPolling();
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      void this.dropConnection();
      this.currentMode = "idle";
    }, LINGER_MS);
    this.lingerTimer.unref();
  }

  private async dropConnection(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (!connection) return;
    retire(connection);
    const client = (this.db as unknown as { client: KnexPgClient }).client;
    await client.destroyRawConnection(connection).catch(() => undefined);
  }
}

/**
 * Detaches the hub from a connection it gave up on. pg emits "error" more than once on a dying
 * connection (the socket error, then "Connection terminated unexpectedly" on end), and an
 * "error" with no listener crashes the whole server, so a no-op listener stays behind.
 */
function retire(connection: PgClient): void {
  connection.removeAllListeners();
  connection.on("error", () => undefined);
}
