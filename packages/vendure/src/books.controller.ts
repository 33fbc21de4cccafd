import { Controller, Get, Query, Res } from "@nestjs/common";
import { Allow, Ctx, Permission, type RequestContext } from "@vendure/core";
import { nextDay, saoPauloDay, startOfSaoPauloDay } from "@pix-checkout/client/books";
import type { Response } from "express";
import { booksCsv } from "./books";
import { PixCheckoutMerchantRecords } from "./merchant-records.service";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `GET /admin/pix-checkout/books.csv?from=YYYY-MM-DD&to=YYYY-MM-DD`: the active channel's Pix and
 * boleto books for those São Paulo days (both counted; the last 30 days by default), for a
 * Brazilian Excel (books.ts). An administrator's session (the Admin API's bearer token or
 * cookie, and its `vendure-token` for a channel) with `ReadOrder`.
 */
@Controller("admin/pix-checkout")
export class BooksController {
  constructor(private readonly records: PixCheckoutMerchantRecords) {}

  @Get("books.csv")
  @Allow(Permission.ReadOrder)
  async books(
    @Ctx() ctx: RequestContext,
    @Query("from") fromDay: unknown,
    @Query("to") toDay: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const today = saoPauloDay(new Date());
    const to = toDay === undefined ? today : toDay;
    const from =
      fromDay === undefined
        ? saoPauloDay(new Date(startOfSaoPauloDay(today).getTime() - 29 * 86_400_000))
        : fromDay;
    if (
      typeof from !== "string" ||
      typeof to !== "string" ||
      !DAY.test(from) ||
      !DAY.test(to) ||
      from > to
    ) {
      res.status(400).json({
        code: "invalid_period",
        message: "Informe o período como from=AAAA-MM-DD e to=AAAA-MM-DD, com from até to.",
      });
      return;
    }
    const movements = await this.records.bookMovements(
      ctx,
      startOfSaoPauloDay(from),
      startOfSaoPauloDay(nextDay(to)),
    );
    res.setHeader("Content-Type", "text/csv; charset=utf-8");
    res.setHeader("Content-Disposition", `attachment; filename="livro-pix-${from}_${to}.csv"`);
    res.setHeader("Cache-Control", "no-store");
    res.status(200).send(booksCsv(movements));
  }
}
