import { Controller, Get, Inject, Param, Res } from "@nestjs/common";
import { Logger } from "@vendure/core";
import { redact } from "@pix-checkout/client";
import type { Response } from "express";
import { PIX_CHECKOUT_OPTIONS, type PixCheckoutVendureOptions } from "./options";
import { PixCheckoutService } from "./pix-checkout.service";
import { chargeIdOf } from "./session-id";

/**
 * `GET /store/pix-checkout/sessions/:session_id`: the session object `<pix-checkout>` reads
 * (packages/element/README.md, "Backend contract"), the same path and shape as on Medusa, so
 * the element is unchanged: `backend-url` is the Vendure server. An id whose MAC is not this
 * store's is 404 before anything is read; the answer holds the code, never a name or a CPF.
 * No stream yet: the element polls (2 s, backing off to 15 s).
 */
@Controller("store/pix-checkout/sessions")
export class PixCheckoutSessionController {
  constructor(
    @Inject(PIX_CHECKOUT_OPTIONS) private readonly options: PixCheckoutVendureOptions,
    private readonly service: PixCheckoutService,
  ) {}

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
    try {
      const session = await this.service.sessionOf(sessionId, chargeId);
      if (!session) return void notFound();
      res.status(200).json(session);
    } catch (error) {
      Logger.error(
        `session read failed: ${redact(String((error as Error)?.message ?? error))}`,
        "PixCheckoutPlugin",
      );
      res.status(503).json({
        code: "store_unavailable",
        message: "A loja não conseguiu consultar este pagamento agora. Tente de novo em instantes.",
      });
    }
  }
}
