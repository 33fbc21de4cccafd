import {
  Controller,
  Get,
  Inject,
  Param,
  Req,
  Res,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from "@nestjs/common";
import { Logger } from "@vendure/core";
import { redact } from "@pix-checkout/client";
import type { Request, Response } from "express";
import { PIX_CHECKOUT_OPTIONS, type PixCheckoutVendureOptions } from "./options";
import { chargeIdOf } from "./session-id";
import { SessionNews } from "./session-news";
import type { ShopperSession } from "./shopper-session";
import { PixCheckoutShopperSessions } from "./shopper-sessions.service";

/** Streams one process holds open at most; past it, the element polls until Retry-After. */
export const MAX_STREAMS = 2000;
/** A comment at least this often, so neither the element nor a proxy counts the stream dead. */
const KEEP_ALIVE_MS = 15_000;
/** A stream ends after this long; the element reads the session and opens a new one. */
const STREAM_LIFETIME_MS = 10 * 60_000;
/** The signals Vendure stops on (its `enableShutdownHooks`). */
const STOP_SIGNALS = ["SIGTERM", "SIGINT"] as const;

/**
 * `GET /store/pix-checkout/sessions/:session_id`: the session object `<pix-checkout>` reads
 * (packages/element/README.md, "Backend contract"), the same path and shape as on Medusa, so
 * the element is unchanged: `backend-url` is the Vendure server. An id whose MAC is not this
 * store's is 404 before anything is read; the answer holds the code, never a name or a CPF.
 * `…/stream` sends the same object at once and again whenever its order's news comes from any
 * server of the store (session-news.ts), so "Pago" shows when Vendure settles the order.
 */
@Controller("store/pix-checkout/sessions")
export class PixCheckoutSessionController implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(PIX_CHECKOUT_OPTIONS) private readonly options: PixCheckoutVendureOptions,
    private readonly sessions: PixCheckoutShopperSessions,
    private readonly news: SessionNews,
  ) {}

  private open = 0;
  /** How to end each stream open now: a server that stops ends them first (`onModuleDestroy`). */
  private readonly ending = new Set<() => void>();

  /**
   * Ends every open stream, cleanly: each page reads its session again and opens a new stream,
   * on whichever server answers.
   */
  private readonly endAll = (): void => {
    for (const end of [...this.ending]) end();
  };

  /**
   * A server told to stop (a deploy's SIGTERM, a Ctrl-C) ends its streams at the signal: Vendure
   * stops GraphQL first, whose drain waits 10 s for open connections and then cuts them, before
   * any hook of this plugin runs.
   */
  onApplicationBootstrap(): void {
    for (const signal of STOP_SIGNALS) process.on(signal, this.onStopSignal);
  }

  /** Stopped some other way (`app.close()`): whatever is still open ends here. */
  onModuleDestroy(): void {
    for (const signal of STOP_SIGNALS) process.off(signal, this.onStopSignal);
    this.endAll();
  }

  private readonly onStopSignal = (signal: NodeJS.Signals): void => {
    this.endAll();
    // Alone on the signal (a server started without Vendure's shutdown hooks), listening must
    // not keep the process alive: it stops, as it would have without this listener.
    if (process.listenerCount(signal) === 1) {
      process.off(signal, this.onStopSignal);
      process.kill(process.pid, signal);
    }
  };

  @Get(":sessionId")
  async session(@Param("sessionId") sessionId: string, @Res() res: Response): Promise<void> {
    res.setHeader("Cache-Control", "no-store");
    const chargeId = chargeIdOf(this.options.webhookSecret, sessionId);
    const notFound = () =>
      res.status(404).json({
        code: "session_not_found",
        message: "Este código não existe nesta loja. Volte ao pedido e gere um novo.",
      });
    if (!chargeId) return void notFound();
    const found = await this.read(sessionId, chargeId, res);
    if (found === null) return;
    if (!found) return void notFound();
    res.status(200).json(found.session);
  }

  @Get(":sessionId/stream")
  async stream(
    @Param("sessionId") sessionId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    res.setHeader("Cache-Control", "no-store");
    const chargeId = chargeIdOf(this.options.webhookSecret, sessionId);
    const found = chargeId ? await this.read(sessionId, chargeId, res) : undefined;
    if (found === null) return;
    if (!chargeId || !found) {
      res.status(404).json({
        code: "session_not_found",
        message: "Este código não existe nesta loja. Volte ao pedido e gere um novo.",
      });
      return;
    }
    if (this.open >= MAX_STREAMS) {
      res.setHeader("Retry-After", "30");
      res.status(503).json({
        code: "stream_limit_reached",
        message: "Muitas páginas abertas agora. A página vai consultar o pagamento de outro jeito.",
      });
      return;
    }
    this.open += 1;
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-store",
      // Proxies that buffer (nginx) pass it through as it is written.
      "X-Accel-Buffering": "no",
    });
    const send = (session: ShopperSession) => res.write(`data: ${JSON.stringify(session)}\n\n`);
    // What was last sent, without its clock: news that changes nothing sends nothing.
    const sameAs = (session: ShopperSession) => JSON.stringify({ ...session, server_time: "" });
    let last = sameAs(found.session);
    send(found.session);
    let reading = Promise.resolve();
    let stop = () => {};
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.open -= 1;
      this.ending.delete(end);
      clearInterval(keepAlive);
      clearTimeout(lifetime);
      stop();
      res.end();
    };
    const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
    const lifetime = setTimeout(end, STREAM_LIFETIME_MS);
    this.ending.add(end);
    req.on("close", end);
    try {
      stop = await this.news.follow(found.orderId, {
        // One read at a time, in order: the last news is the last word.
        news: () => {
          reading = reading.then(async () => {
            if (ended) return;
            const now = await this.sessions.sessionOf(sessionId, chargeId).catch(() => undefined);
            if (!now || ended) return;
            const key = sameAs(now.session);
            if (key === last) return;
            last = key;
            send(now.session);
          });
        },
        lost: end,
      });
      if (ended) stop();
    } catch (error) {
      Logger.error(
        `session stream could not follow its order: ${redact(String((error as Error)?.message ?? error))}`,
        "PixCheckoutPlugin",
      );
      end();
    }
  }

  /** The session and its order, or null once a 503 was answered for a read that failed. */
  private async read(sessionId: string, chargeId: string, res: Response) {
    try {
      return await this.sessions.sessionOf(sessionId, chargeId);
    } catch (error) {
      Logger.error(
        `session read failed: ${redact(String((error as Error)?.message ?? error))}`,
        "PixCheckoutPlugin",
      );
      res.status(503).json({
        code: "store_unavailable",
        message: "A loja não conseguiu consultar este pagamento agora. Tente de novo em instantes.",
      });
      return null;
    }
  }
}
