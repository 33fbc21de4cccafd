import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { pickProvider, sendUpstreamError } from "../operations/admin-api";
import {
  countDifferences,
  parsePeriod,
  pixDiscountCost,
  reconcileBooks,
  type Reconciliation,
} from "./books";
import { csvFileName, reconciliationCsv } from "./books-csv";
import { ofxFileName, reconciliationOfx, toWindows1252 } from "./books-ofx";
import { loadBooks } from "./books-loader";
import { sendError } from "../platform/errors";
import { createPluginLogger } from "../platform/logger";
import type { RegisteredProvider } from "../platform/provider-registry";
import { saoPauloDay } from "@pix-checkout/client/books";

/** Reads the three books of a period for one registration and compares them. Read-only. */
export async function reconcilePeriod(
  container: MedusaContainer,
  provider: RegisteredProvider,
  period: { from: string; to: string; start: Date; end: Date },
): Promise<Reconciliation> {
  const logger = createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER));
  return reconcileBooks(await loadBooks(container, provider, period, logger));
}

/**
 * `GET /admin/pix-checkout/reconciliation[.csv|.ofx]?from=YYYY-MM-DD&to=YYYY-MM-DD[&provider=id]`:
 * the JSON report, or the CSV or OFX download (`lang=pt-BR|en` for their words).
 * `pix-discount-cost`: what the Pix discount cost over the same period, as the CSV and OFX add
 * it up (`GET /admin/pix-checkout/pix-discount/cost`).
 */
export async function answerReconciliation(
  req: MedusaRequest,
  res: MedusaResponse,
  format: "json" | "csv" | "ofx" | "pix-discount-cost",
): Promise<void> {
  const period = parsePeriod(req.query.from, req.query.to, saoPauloDay(new Date()));
  if (!period.ok) {
    sendError(res, "invalid_period", period.message);
    return;
  }
  const lang = req.query.lang ?? "pt-BR";
  if (lang !== "pt-BR" && lang !== "en") {
    sendError(res, "invalid_query", "lang must be pt-BR or en.");
    return;
  }
  const picked = pickProvider(req, res);
  if (!picked) return;
  let report: Reconciliation;
  try {
    report = await reconcilePeriod(req.scope, picked.provider, period);
  } catch (error) {
    // The API's failures answer with its code; anything else is a bug for Medusa's handler.
    if (typeof (error as { code?: unknown }).code !== "string") throw error;
    sendUpstreamError(res, error);
    return;
  }
  if (format === "pix-discount-cost") {
    res.setHeader("Cache-Control", "no-store");
    res.json({
      provider: picked.provider.key,
      providers: picked.all,
      pix_discount_cost: pixDiscountCost(report),
    });
    return;
  }
  if (format === "csv") {
    const name = csvFileName(picked.provider.key, period.from, period.to);
    res.setHeader("Content-Type", "text/csv; charset=utf-8");
    res.setHeader("Content-Disposition", `attachment; filename="${name}"`);
    res.setHeader("Cache-Control", "no-store");
    res.status(200).send(reconciliationCsv(report, lang));
    return;
  }
  if (format === "ofx") {
    const name = ofxFileName(picked.provider.key, period.from, period.to);
    const ofx = reconciliationOfx(
      report,
      { provider: picked.provider.key },
      { language: lang, start: period.start, end: period.end },
    );
    res.setHeader("Content-Type", "application/x-ofx; charset=windows-1252");
    res.setHeader("Content-Disposition", `attachment; filename="${name}"`);
    res.setHeader("Cache-Control", "no-store");
    res.status(200).send(toWindows1252(ofx));
    return;
  }
  res.setHeader("Cache-Control", "no-store");
  res.json({
    provider: picked.provider.key,
    providers: picked.all,
    ...report,
    counts: countDifferences(report.differences),
  });
}
