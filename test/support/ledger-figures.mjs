// Every figure a merchant sees, held against the ledger to the cent (packages/medusa/docs/
// ledger.md): the overview's 30 days, each registration's balance card and transactions list,
// and its books of one day. Used by the recovery mix (`npm test` and `npm run bench`) and by the
// chaos run's checker, so the same comparison runs at both scales.

const PARTS = ["received", "captured", "owed", "returned", "held"];

/** Sums of the ledger's parts over the charges a `where` clause picks (paid ones only). */
async function ledgerSums(sql, where, params) {
  const [row] = await sql(
    `select coalesce(sum(received_cents), 0)::bigint as received,
            coalesce(sum(captured_cents), 0)::bigint as captured,
            coalesce(sum(owed_cents), 0)::bigint as owed,
            coalesce(sum(returned_cents), 0)::bigint as returned,
            coalesce(sum(held_cents), 0)::bigint as held
       from pix_checkout_charge
      where deleted_at is null and status = 'paid' and ${where}`,
    params,
  );
  return Object.fromEntries(PARTS.map((part) => [part, Number(row[part])]));
}

/** "captured 100 ≠ 90"-style differences between two sets of parts. */
function differ(what, ledger, shown, parts = PARTS) {
  const off = parts.filter((part) => Number(shown[part] ?? 0) !== ledger[part]);
  return off.length === 0
    ? []
    : [
        `${what} disagrees with the ledger: ${off
          .map((part) => `${part} ${shown[part] ?? "missing"} (ledger ${ledger[part]})`)
          .join(", ")}`,
      ];
}

/**
 * What disagrees, one sentence each (empty: every figure agrees).
 * - `admin(path)`: the admin API's JSON answer to a GET (throws on a non-200).
 * - `sql(text, params)`: the rows of a query on the store's database (`$1` placeholders).
 * - `registrations`: the provider registrations' ids (`a` for `pp_pix_a`, `pp_boleto_a`).
 * - `day`: the São Paulo day (`YYYY-MM-DD`) whose books are compared; null for none (a run
 *   whose payments the service dates on a day still to come cannot ask for their books).
 */
export async function ledgerFigureDisagreements({ admin, sql, registrations, day }) {
  const found = [];

  // The overview: the last 30 São Paulo days, by when the store recorded each payment.
  const month = (await admin("/admin/pix-checkout/overview")).periods.month;
  const overview = Object.fromEntries(
    [
      ["received", "received_cents"],
      ["captured", "income_cents"],
      ["owed", "owed_cents"],
      ["returned", "returned_cents"],
      ["held", "held_cents"],
    ].map(([part, field]) => [part, month.pix[field] + month.boleto[field]]),
  );
  const since = `paid_at >= ((now() at time zone 'America/Sao_Paulo')::date - 29)::timestamp
                 at time zone 'America/Sao_Paulo'`;
  found.push(...differ("the overview's 30 days", await ledgerSums(sql, since, []), overview));

  for (const key of registrations) {
    const providers = [`pp_pix_${key}`, `pp_boleto_${key}`];
    const ofRegistration = await ledgerSums(sql, "provider_id = any($1)", [providers]);

    // The balance card: the service's balance beside the ledger's totals.
    const balance = await admin(`/admin/pix-checkout/balance?provider=${key}`);
    found.push(...differ(`registration ${key}'s balance card`, ofRegistration, balance.ledger));

    // The transactions list: each paid charge of the store's with its money, every page.
    const listed = Object.fromEntries(PARTS.map((part) => [part, 0]));
    let cursor = null;
    do {
      const page = await admin(
        `/admin/pix-checkout/transactions?provider=${key}&type=charge&limit=100${
          cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ""
        }`,
      );
      for (const tx of page.transactions) {
        if (tx.status !== "paid" && tx.money) {
          found.push(`registration ${key}: transaction ${tx.id} is ${tx.status} and has money`);
        }
        if (tx.status !== "paid" && tx.net_amount !== null) {
          found.push(`registration ${key}: ${tx.status} transaction ${tx.id} shows a net amount`);
        }
        for (const part of PARTS) listed[part] += tx.money?.[part] ?? 0;
      }
      cursor = page.has_more ? page.next_cursor : null;
    } while (cursor);
    found.push(...differ(`registration ${key}'s transactions list`, ofRegistration, listed));

    // The books of `day`: what the ledger owes back and holds of the day's payments (dated by
    // the service, as the books are), and the refunds it returned that day.
    if (!day) continue;
    const books = await admin(
      `/admin/pix-checkout/reconciliation?provider=${key}&from=${day}&to=${day}`,
    );
    const ofDay = await ledgerSums(
      sql,
      `provider_id = any($1) and to_char(coalesce(api_paid_at, paid_at) at time zone 'America/Sao_Paulo', 'YYYY-MM-DD') = $2`,
      [providers, day],
    );
    found.push(
      ...differ(
        `registration ${key}'s books of ${day}`,
        ofDay,
        { owed: books.totals.charges.owed_cents, held: books.totals.charges.held_cents },
        ["owed", "held"],
      ),
    );
    const [returned] = await sql(
      `select coalesce(sum(e.amount_cents), 0)::bigint as cents
         from pix_checkout_ledger_entry e join pix_checkout_charge c on c.charge_id = e.charge_id
        where e.to_part = 'returned' and c.provider_id = any($1) and c.deleted_at is null
          and to_char(e.created_at at time zone 'America/Sao_Paulo', 'YYYY-MM-DD') = $2`,
      [providers, day],
    );
    const booked = books.lines
      .flatMap((line) => line.declarations ?? [])
      .reduce((sum, declaration) => sum + declaration.amount_cents, 0);
    if (booked !== Number(returned.cents)) {
      found.push(
        `registration ${key}'s books of ${day} list ${booked} cents returned (ledger ${returned.cents})`,
      );
    }
  }
  return found;
}
