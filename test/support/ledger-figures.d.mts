/** One row of a query, by column. */
export type SqlRow = Record<string, unknown>;

/**
 * What disagrees between the merchant's figures (overview, balance card, transactions list,
 * books) and the ledger, one sentence each; empty when every figure agrees to the cent.
 */
export function ledgerFigureDisagreements(options: {
  admin: (path: string) => Promise<unknown>;
  sql: (text: string, params: unknown[]) => Promise<SqlRow[]>;
  registrations: readonly string[];
  day: string | null;
}): Promise<string[]>;
