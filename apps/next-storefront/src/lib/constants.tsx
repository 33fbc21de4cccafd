import { Bolt, CreditCard, DocumentText } from "@medusajs/icons"
import React from "react"

/* Map of payment provider_id to their title and icon. Add in any payment providers you want to use. */
export const paymentInfoMap: Record<
  string,
  { title: string; icon: React.JSX.Element }
> = {
  pp_system_default: {
    title: "Manual Payment",
    icon: <CreditCard />,
  },
  "pp_pix_pix-checkout": {
    title: "Pix",
    icon: <Bolt />,
  },
  "pp_boleto_pix-checkout": {
    title: "Boleto",
    icon: <DocumentText />,
  },
}

// Stripe is not installed in this store; kept so the starter's checks read the same.
export const isStripeLike = (providerId?: string) => {
  return (
    providerId?.startsWith("pp_stripe_") || providerId?.startsWith("pp_medusa-")
  )
}
export const isManual = (providerId?: string) => {
  return providerId?.startsWith("pp_system_default")
}
export const isPix = (providerId?: string) => {
  return providerId?.startsWith("pp_pix_")
}
export const isBoleto = (providerId?: string) => {
  return providerId?.startsWith("pp_boleto_")
}
