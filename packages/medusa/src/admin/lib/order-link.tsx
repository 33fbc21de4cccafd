/// <reference lib="dom" />
import { Link } from "react-router-dom";
import type { AdminChargeOrder } from "./types";

/** `#12`, linked to the order's page in the admin; "—" (or `none`) when there is no order. */
export function OrderLink({
  order,
  none = "—",
}: {
  order: AdminChargeOrder | null;
  none?: string;
}) {
  if (!order) return <>{none}</>;
  return (
    <Link to={`/orders/${order.id}`} className="text-ui-fg-interactive hover:underline">
      {order.display_id !== null ? `#${order.display_id}` : order.id}
    </Link>
  );
}

/** Who paid: the order's customer name, else its e-mail, else the API's payer. */
export function customerOf(
  order: AdminChargeOrder | null,
  payer?: { name?: string; email?: string } | null,
): string {
  return order?.customer_name ?? order?.email ?? payer?.name ?? payer?.email ?? "—";
}
