import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A flag's reason is only its code and values (`flag_code`, `flag_detail`); the English sentence
 * in `flag_reason` is gone, so nothing stores a sentence or reads one back.
 *
 * Rows flagged before the codes existed have only the sentence: each is read back here, once,
 * with the patterns `describeFlag` wrote them with (first match wins, as the old reader did), and
 * a sentence of no known shape becomes `other` with the text as its message. Then the column
 * goes. `down` brings the column back empty: the sentences are not rebuilt.
 */
export class Migration20261124100000 extends Migration {
  override async up(): Promise<void> {
    // Postgres matches `.` across newlines by default, as the reader's `[\s\S]` did.
    const readers: [pattern: string, code: string, detail: string][] = [
      [
        String.raw`^refund due: (\d+) cents \((\w+)\)$`,
        "refund_due",
        `jsonb_build_object('reason', m[2], 'amount_cents', m[1]::bigint)`,
      ],
      [
        String.raw`^API amount (\d+) differs from (\d+)$`,
        "amount_mismatch",
        `jsonb_build_object('api_cents', m[1]::bigint, 'recorded_cents', m[2]::bigint)`,
      ],
      [
        String.raw`^paid after order (\S+) was canceled$`,
        "paid_after_order_canceled",
        `jsonb_build_object('order_id', m[1])`,
      ],
      [
        String.raw`^paid after the charge was (\w+)$`,
        "paid_after_charge_closed",
        `jsonb_build_object('status', m[1])`,
      ],
      [
        String.raw`^paid, but Medusa could not capture it \((\d+) attempts\): (.*)$`,
        "capture_failed",
        `jsonb_build_object('attempts', m[1]::bigint, 'message', m[2])`,
      ],
      [
        String.raw`^could not be checked with the payment service after (\d+) attempts: (.*)$`,
        "check_failed",
        `jsonb_build_object('attempts', m[1]::bigint, 'message', m[2])`,
      ],
    ];
    const exists = `exists (select 1 from information_schema.columns
      where table_name = 'pix_checkout_charge' and column_name = 'flag_reason')`;
    for (const [pattern, code, detail] of readers) {
      this.addSql(
        `do $$ begin if ${exists} then
           update "pix_checkout_charge" c set "flag_code" = '${code}', "flag_detail" = ${detail}
           from (
             select "id", regexp_match("flag_reason", '${pattern}') as m from "pix_checkout_charge"
             where coalesce("flag_code", '') = '' and "flag_reason" is not null
           ) r
           where c."id" = r."id" and r.m is not null;
         end if; end $$;`,
      );
    }
    this.addSql(
      `do $$ begin if ${exists} then
         update "pix_checkout_charge"
         set "flag_code" = 'other', "flag_detail" = jsonb_build_object('message', "flag_reason")
         where coalesce("flag_code", '') = '' and "flag_reason" is not null;
       end if; end $$;`,
    );
    this.addSql(`alter table if exists "pix_checkout_charge" drop column if exists "flag_reason";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "pix_checkout_charge" add column if not exists "flag_reason" text null;`,
    );
  }
}
