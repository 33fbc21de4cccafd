/// <reference lib="dom" />
// Admin extensions run in the merchant's browser (the server code is built without DOM types).
// Data comes the way Medusa documents for admin extensions: its JS SDK (the admin's session
// cookie) inside TanStack Query, whose client the dashboard already provides. Query gives the
// views loading and error states, and one invalidation refreshes every view after a re-check.
import Medusa from "@medusajs/js-sdk";
import { toast } from "@medusajs/ui";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PixT } from "./i18n";
import { refundDoneWords } from "./refund-words";
import type {
  AdminBalance,
  AdminCharge,
  AdminChargeSummary,
  AdminDelivery,
  AdminHealth,
  AdminOverview,
  AdminPixDiscount,
  AdminPixDiscountCost,
  AdminOrderWithoutCode,
  AdminOutstanding,
  AdminTransaction,
} from "./types";

/**
 * The SDK on the dashboard's own backend (the dashboard is served by it, so "/" reaches it),
 * authenticated by the admin's session cookie.
 */
export const sdk = new Medusa({ baseUrl: "/", auth: { type: "session" } });

/** Every query of this plugin starts with this key, so one invalidation refreshes them all. */
const ROOT = "pix-checkout";

const get = <T>(path: string, query: Record<string, string | undefined> = {}) =>
  sdk.client.fetch<T>(`/admin/pix-checkout/${path}`, {
    query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)),
  });

/** The balance of a registration (the first one when `provider` is undefined). */
export const useBalance = (provider?: string) =>
  useQuery({
    queryKey: [ROOT, "balance", provider ?? null],
    queryFn: () => get<AdminBalance>("balance", { provider }),
  });

/** One page of the API's transactions; the previous page stays on screen while the next loads. */
export const useTransactions = (filters: Record<string, string | undefined>) =>
  useQuery({
    queryKey: [ROOT, "transactions", filters],
    queryFn: () =>
      get<{ transactions: AdminTransaction[]; has_more: boolean; next_cursor: string | null }>(
        "transactions",
        filters,
      ),
    placeholderData: keepPreviousData,
  });

/**
 * What needs the merchant: charges whose money waits for a decision, then open notes; and the
 * orders kept although their code could never be made.
 */
export const useChargesNeedingAttention = () =>
  useQuery({
    queryKey: [ROOT, "charges", "needs_attention"],
    queryFn: () =>
      get<{ charges: AdminChargeSummary[]; orders_without_code?: AdminOrderWithoutCode[] }>(
        "charges",
        { needs_attention: "true" },
      ),
  });

/** The first screen's money; read again every minute while the page is open. */
export const useOverview = () =>
  useQuery({
    queryKey: [ROOT, "overview"],
    queryFn: () => get<AdminOverview>("overview"),
    refetchInterval: 60_000,
  });

/** Whether payments are flowing; read again every minute while the page is open. */
export const useHealth = () =>
  useQuery({
    queryKey: [ROOT, "health"],
    queryFn: () => get<AdminHealth>("health"),
    refetchInterval: 60_000,
  });

/** The most recent webhook deliveries. */
export const useDeliveries = () =>
  useQuery({
    queryKey: [ROOT, "deliveries"],
    queryFn: () => get<{ deliveries: AdminDelivery[] }>("deliveries", { limit: "50" }),
  });

/** An order's charges with their timelines; asked only when `enabled` (the user may read them). */
export const useOrderCharges = (orderId: string, enabled = true) =>
  useQuery({
    queryKey: [ROOT, "order", orderId],
    queryFn: () =>
      get<{ charges: AdminCharge[]; outstanding?: AdminOutstanding | null }>(
        `orders/${encodeURIComponent(orderId)}`,
      ),
    enabled,
  });

/**
 * "Cobrar por Pix": gives the order a payment collection for what Medusa says it owes, then
 * refreshes the plugin's views and Medusa's own order (its payment card shows the collection).
 */
export function useChargeOrder(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      sdk.client.fetch<{ outstanding: AdminOutstanding }>(
        `/admin/pix-checkout/orders/${encodeURIComponent(orderId)}/payment-collection`,
        { method: "POST" },
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [ROOT] }),
        queryClient.invalidateQueries({ queryKey: ["orders"] }),
      ]),
  });
}

/**
 * Re-checks a charge with the payment API (through the plugin's state machine), tells the
 * merchant what it found in their language, and refreshes every view of the plugin.
 */
export function useRecheck(t: PixT) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (chargeId: string) =>
      sdk.client.fetch<{ outcome: string; charge: { status: string } | null }>(
        `/admin/pix-checkout/charges/${encodeURIComponent(chargeId)}/refresh`,
        { method: "POST" },
      ),
    onSuccess: (result) => {
      const status = result.charge?.status ?? "unknown";
      toast.success(
        t("recheck.done", {
          status: t(`status.${status}`, { defaultValue: status }),
          outcome: t(`status.${result.outcome}`, { defaultValue: result.outcome }),
        }),
      );
      return queryClient.invalidateQueries({ queryKey: [ROOT] });
    },
    onError: (error: Error) => toast.error(error.message),
  });
}

/**
 * Records money the merchant returned in the payment service's dashboard (the API has no
 * refund endpoint): on the charge's timeline and in the ledger, and as a refund in Medusa for
 * the part Medusa captured; the toast says where, as the route answers.
 */
export function useRecordRefund(t: PixT) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { chargeId: string; amount: number; note: string }) =>
      sdk.client.fetch<{
        recorded_in_medusa_cents: number;
        ledger_only_cents: number;
        resolved_flag: boolean;
      }>(`/admin/pix-checkout/charges/${encodeURIComponent(input.chargeId)}/refunds`, {
        method: "POST",
        body: { amount: input.amount, note: input.note },
      }),
    onSuccess: (result) => {
      toast.success(refundDoneWords(result, t));
      return queryClient.invalidateQueries({ queryKey: [ROOT] });
    },
    onError: (error: Error) => toast.error(error.message),
  });
}

/**
 * "Registrar MED": a MED's notificação de infração blocked `amount` cents of a charge's
 * captured money (bloqueio cautelar) until its outcome; docs/ledger.md.
 */
export function useMarkMed(t: PixT) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { chargeId: string; protocol: string; deadline: string; amount: number }) =>
      sdk.client.fetch<{ charge: AdminChargeSummary }>(
        `/admin/pix-checkout/charges/${encodeURIComponent(input.chargeId)}/med`,
        {
          method: "POST",
          body: { protocol: input.protocol, deadline: input.deadline, amount: input.amount },
        },
      ),
    onSuccess: () => {
      toast.success(t("med.marked"));
      return queryClient.invalidateQueries({ queryKey: [ROOT] });
    },
    onError: (error: Error) => toast.error(error.message),
  });
}

/** The MED's outcome: "Mantido" (`kept`) or "Devolvido pelo MED" (`returned`). */
export function useMedOutcome(t: PixT) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { chargeId: string; outcome: "kept" | "returned"; amount?: number }) =>
      sdk.client.fetch<{
        returned_cents: number;
        kept_cents: number;
        recorded_in_medusa_cents: number;
        ledger_only_cents: number;
      }>(`/admin/pix-checkout/charges/${encodeURIComponent(input.chargeId)}/med/outcome`, {
        method: "POST",
        body:
          input.outcome === "kept"
            ? { outcome: "kept" }
            : {
                outcome: "returned",
                ...(input.amount !== undefined ? { amount: input.amount } : {}),
              },
      }),
    onSuccess: (_result, input) => {
      toast.success(t(input.outcome === "kept" ? "med.keptDone" : "med.returnedDone"));
      return queryClient.invalidateQueries({ queryKey: [ROOT] });
    },
    onError: (error: Error) => toast.error(error.message),
  });
}

/**
 * Accepts the smaller amount a held (underpaid) charge brought: it is captured for what arrived,
 * and the note goes on its timeline.
 */
export function useAcceptReceived(t: PixT) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { chargeId: string; note: string }) =>
      sdk.client.fetch<{ accepted: boolean }>(
        `/admin/pix-checkout/charges/${encodeURIComponent(input.chargeId)}/accept`,
        { method: "POST", body: { note: input.note } },
      ),
    onSuccess: () => {
      toast.success(t("accept.done"));
      return queryClient.invalidateQueries({ queryKey: [ROOT] });
    },
    onError: (error: Error) => toast.error(error.message),
  });
}

/** Takes a charge out of "Needs attention", with a note saying how it was dealt with. */
export function useResolveFlag(t: PixT) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { chargeId: string; note: string }) =>
      sdk.client.fetch<{ resolved: boolean }>(
        `/admin/pix-checkout/charges/${encodeURIComponent(input.chargeId)}/resolve`,
        { method: "POST", body: { note: input.note } },
      ),
    onSuccess: () => {
      toast.success(t("resolve.done"));
      return queryClient.invalidateQueries({ queryKey: [ROOT] });
    },
    onError: (error: Error) => toast.error(error.message),
  });
}

/** The Pix discount as it stands (the promotion the plugin manages). */
export const usePixDiscount = () =>
  useQuery({
    queryKey: [ROOT, "pix-discount"],
    queryFn: () => get<{ pix_discount: AdminPixDiscount }>("pix-discount"),
  });

/**
 * What the Pix discount cost over `from`–`to` (São Paulo days, both included) at a registration:
 * the books' own sum, the CSV's "Desconto no Pix" total for the same days. Asked only for a
 * period the route takes (`enabled`), and the last figure stays on screen while the next loads.
 */
export const usePixDiscountCost = (
  period: { from: string; to: string; provider?: string },
  enabled: boolean,
) =>
  useQuery({
    queryKey: [ROOT, "pix-discount-cost", period.from, period.to, period.provider ?? null],
    queryFn: () =>
      get<{ pix_discount_cost: AdminPixDiscountCost }>("pix-discount/cost", {
        from: period.from,
        to: period.to,
        provider: period.provider,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });

/** Turns the Pix discount on or off and sets its amount; carts follow on their next refresh. */
export function useSavePixDiscount(t: PixT) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Pick<AdminPixDiscount, "enabled" | "type" | "value">) =>
      sdk.client.fetch<{ pix_discount: AdminPixDiscount }>("/admin/pix-checkout/pix-discount", {
        method: "POST",
        body: input,
      }),
    onSuccess: () => {
      toast.success(t("pixDiscount.saved"));
      return queryClient.invalidateQueries({ queryKey: [ROOT] });
    },
    onError: (error: Error) => toast.error(error.message),
  });
}
