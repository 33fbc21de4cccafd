import type { ChargeRecord, KeyState, WithdrawalRecord } from "./records.js";

/** What an idempotent create remembers: the charge it made, and a fingerprint of its body. */
export interface IdempotencyEntry {
  chargeUuid: string;
  fingerprint: string;
}

/**
 * Everything the sandbox remembers between requests, in memory. Keys and idempotency entries are
 * indexed by a hash of the secret key, so the state (and its file) never holds a key in clear.
 */
export class SandboxState {
  seq = 0;
  readonly charges = new Map<string, ChargeRecord>();
  /** Variant B id (`ch_svc_...`) to UUID. */
  readonly chargeIdIndex = new Map<string, string>();
  readonly withdrawals = new Map<string, WithdrawalRecord>();
  readonly withdrawalIdIndex = new Map<string, string>();
  /** sha256(key) -> state. */
  readonly keys = new Map<string, KeyState>();
  /** sha256(key) + "\n" + Idempotency-Key -> entry. */
  readonly idempotency = new Map<string, IdempotencyEntry>();

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  addCharge(charge: ChargeRecord): void {
    this.charges.set(charge.uuid, charge);
    this.chargeIdIndex.set(charge.id, charge.uuid);
  }

  addWithdrawal(withdrawal: WithdrawalRecord): void {
    this.withdrawals.set(withdrawal.uuid, withdrawal);
    this.withdrawalIdIndex.set(withdrawal.id, withdrawal.uuid);
  }

  /** Exact lookup by either identifier form. */
  chargeByExactId(id: string): ChargeRecord | undefined {
    const uuid = this.chargeIdIndex.get(id) ?? id.toLowerCase();
    return this.charges.get(uuid);
  }

  /**
   * Variant B's partial identifier: a prefix (8 characters or more) of the opaque part of
   * `ch_svc_<opaque>`, of the whole `ch_svc_...` id, or of the UUID. Returns every match so the
   * caller can tell "none" from "ambiguous".
   */
  chargesByPrefix(prefix: string): ChargeRecord[] {
    const needle = prefix.toLowerCase();
    const matches: ChargeRecord[] = [];
    for (const charge of this.charges.values()) {
      if (
        charge.uuid.startsWith(needle) ||
        charge.id.startsWith(needle) ||
        charge.id.slice("ch_svc_".length).startsWith(needle)
      ) {
        matches.push(charge);
      }
    }
    return matches;
  }

  /** Forgets a charge, as a service whose books lost it would (control route `drop`). */
  dropCharge(charge: ChargeRecord): void {
    this.charges.delete(charge.uuid);
    this.chargeIdIndex.delete(charge.id);
  }

  withdrawalById(id: string): WithdrawalRecord | undefined {
    const uuid = this.withdrawalIdIndex.get(id) ?? id.toLowerCase();
    return this.withdrawals.get(uuid);
  }

  /** Charges, newest first. */
  chargesNewestFirst(): ChargeRecord[] {
    return [...this.charges.values()].sort(newestFirst);
  }

  /** Withdrawals, newest first. */
  withdrawalsNewestFirst(): WithdrawalRecord[] {
    return [...this.withdrawals.values()].sort(newestFirst);
  }

  /** Forgets charges, withdrawals and idempotency entries; keeps keys. */
  clearBusinessData(): void {
    this.charges.clear();
    this.chargeIdIndex.clear();
    this.withdrawals.clear();
    this.withdrawalIdIndex.clear();
    this.idempotency.clear();
  }
}

/** Sort order of every list: newest creation first, ties broken by creation order. */
export function newestFirst(
  a: { createdAt: number; seq: number },
  b: { createdAt: number; seq: number },
): number {
  return b.createdAt - a.createdAt || b.seq - a.seq;
}
