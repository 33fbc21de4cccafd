import { timingSafeEqual } from "node:crypto";
import { Body, Controller, Inject, Post, Query, Res } from "@nestjs/common";
import { Logger } from "@vendure/core";
import { WebhookParseError, redact } from "@pix-checkout/client";
import type { Response } from "express";
import { PIX_CHECKOUT_OPTIONS, type PixCheckoutVendureOptions } from "./options";
import { PixCheckoutService } from "./pix-checkout.service";

/**
 * `POST /pix-checkout/webhook?token=<webhookSecret>`: the service's deliveries. A wrong token is
 * 401 and asks nothing; a body that is no event is 400; otherwise the service is asked about
 * the charge and its answer alone moves money. A store that cannot answer (its database) says
 * 503, so the service delivers again.
 */
@Controller("pix-checkout")
export class PixCheckoutWebhookController {
  constructor(
    @Inject(PIX_CHECKOUT_OPTIONS) private readonly options: PixCheckoutVendureOptions,
    private readonly service: PixCheckoutService,
  ) {}

  @Post("webhook")
  async webhook(
    @Query("token") token: unknown,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    if (!tokenMatches(token, this.options.webhookSecret)) {
      res.status(401).json({
        code: "webhook_unauthorized",
        message: "The webhook URL's token does not match the plugin's webhookSecret.",
      });
      return;
    }
    try {
      res.status(200).json({ outcome: await this.service.hear(body) });
    } catch (error) {
      if (error instanceof WebhookParseError) {
        res.status(400).json({
          code: "invalid_webhook",
          message: "The body is no event of the payment service.",
        });
        return;
      }
      Logger.error(
        `webhook failed: ${redact(String((error as Error)?.message ?? error))}`,
        "PixCheckoutPlugin",
      );
      res.status(503).json({
        code: "store_unavailable",
        message: "The store could not record this delivery now; deliver it again.",
      });
    }
  }
}

function tokenMatches(given: unknown, secret: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
