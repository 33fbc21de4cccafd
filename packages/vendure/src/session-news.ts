import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from "@nestjs/common";
import {
  EventBus,
  Logger,
  OrderStateTransitionEvent,
  PaymentStateTransitionEvent,
  RefundStateTransitionEvent,
  TransactionalConnection,
  type ID,
  type RequestContext,
} from "@vendure/core";
import { redact } from "@pix-checkout/client";

/** What subscribing to Vendure's event bus gives back (an rxjs Subscription). */
type Subscription = ReturnType<ReturnType<EventBus["ofType"]>["subscribe"]>;
/** The PostgreSQL channel an order's news travels on, between every server of the store. */
const CHANNEL = "pix_checkout_vendure_news";

/** Who follows an order's news: a shopper's stream. */
export interface Follower {
  news(): void;
  lost(): void;
}

/** A pooled pg client, as TypeORM's PostgreSQL driver hands it out. */
interface ListeningClient {
  query(sql: string): Promise<unknown>;
  on(event: "notification", listener: (message: { payload?: string }) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
}

/**
 * Tells every server process of the store that an order's money or state moved, so a shopper's
 * stream of that order's codes reads its session again (session.controller.ts). Vendure's own
 * events (an order's, a payment's or a refund's state moved, by this plugin or by the admin)
 * fire after their commit in the process that made them; PostgreSQL's NOTIFY carries them to
 * the others, and to this one, on one listening connection per process.
 */
@Injectable()
export class SessionNews implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly followers = new Map<string, Set<Follower>>();
  private readonly subscriptions: Subscription[] = [];
  private listening: Promise<ListeningClient> | undefined;
  private releaseClient: ((error?: boolean) => void) | undefined;

  constructor(
    private readonly connection: TransactionalConnection,
    private readonly eventBus: EventBus,
  ) {}

  onApplicationBootstrap(): void {
    const news = (event: { order: { id: ID } }) => void this.announce(event.order.id);
    this.subscriptions.push(
      this.eventBus.ofType(OrderStateTransitionEvent).subscribe(news),
      this.eventBus.ofType(PaymentStateTransitionEvent).subscribe(news),
      this.eventBus.ofType(RefundStateTransitionEvent).subscribe(news),
    );
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.releaseClient?.(true);
    this.releaseClient = undefined;
    this.listening = undefined;
  }

  /** The order's news, to every process, now. */
  async announce(orderId: ID): Promise<void> {
    await this.connection.rawConnection
      .query("SELECT pg_notify($1, $2)", [CHANNEL, String(orderId)])
      .catch((error: unknown) => warn("announcing", error));
  }

  /**
   * The order's news, sent when `tx` commits (NOTIFY in a transaction is delivered at its
   * commit, and not at all when it rolls back): for a change no Vendure event reports (a
   * replaced code's money held, which moves no state).
   */
  async announceIn(tx: RequestContext, orderId: ID): Promise<void> {
    await this.connection
      .getRepository(tx, "Payment")
      .query("SELECT pg_notify($1, $2)", [CHANNEL, String(orderId)]);
  }

  /**
   * Calls `follower.news` at each news of the order, until the function returned is called;
   * `follower.lost` once if the listening connection fails (no news would come any more).
   */
  async follow(orderId: ID, follower: Follower): Promise<() => void> {
    await this.listen();
    const key = String(orderId);
    const set = this.followers.get(key) ?? new Set();
    set.add(follower);
    this.followers.set(key, set);
    return () => {
      set.delete(follower);
      if (set.size === 0) this.followers.delete(key);
    };
  }

  /** The process's one listening connection, taken from TypeORM's pool on first use. */
  private listen(): Promise<ListeningClient> {
    this.listening ??= (async () => {
      const driver = this.connection.rawConnection.driver as unknown as {
        obtainMasterConnection(): Promise<[ListeningClient, (error?: boolean) => void]>;
      };
      const [client, release] = await driver.obtainMasterConnection();
      this.releaseClient = release;
      client.on("notification", ({ payload }) => {
        for (const follower of this.followers.get(payload ?? "") ?? []) follower.news();
      });
      client.on("error", (error) => {
        // The next stream opens a new connection; the open ones end, and the element reconnects
        // (a status read, then a new stream).
        warn("listening", error);
        const lost = [...this.followers.values()].flatMap((set) => [...set]);
        this.followers.clear();
        for (const follower of lost) follower.lost();
        this.releaseClient?.(true);
        this.releaseClient = undefined;
        this.listening = undefined;
      });
      await client.query(`LISTEN ${CHANNEL}`);
      return client;
    })();
    this.listening.catch(() => (this.listening = undefined));
    return this.listening;
  }
}

function warn(what: string, error: unknown): void {
  Logger.warn(
    `session news: ${what} failed: ${redact(String((error as Error)?.message ?? error))}`,
    "PixCheckoutPlugin",
  );
}
