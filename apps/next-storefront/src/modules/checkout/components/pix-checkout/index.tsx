"use client"

import type { PixPaidDetail } from "@pix-checkout/element"
import dynamic from "next/dynamic"
import { useEffect, useState } from "react"

const PixCheckout = dynamic(
  () => import("@pix-checkout/element/react").then((m) => m.PixCheckout),
  { ssr: false, loading: () => <p>Carregando pagamento…</p> }
)

type Props = {
  sessionId: string
  onPaid?: (detail: PixPaidDetail) => void
  /** The code's create failed: offer a new one (an expired code, the element renews itself). */
  onFailed?: () => void
}

/** Shows a Pix code or a boleto with its live status, from the plugin's store routes. */
export default function PixCheckoutClient({
  sessionId,
  onPaid,
  onFailed,
}: Props) {
  // "Ver o código atual" on a replaced code, and "Gerar novo código" on an expired one, move
  // the element to the cart's current session; keep it there across re-renders instead of
  // handing it the old id again.
  const [shown, setShown] = useState(sessionId)
  useEffect(() => setShown(sessionId), [sessionId])
  return (
    <PixCheckout
      backendUrl={process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL!}
      publishableKey={process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY!}
      sessionId={shown}
      onPixStatusChange={(event) => {
        setShown(event.detail.session.session_id)
        if (event.detail.status === "failed") onFailed?.()
      }}
      onPixRenewed={(event) => setShown(event.detail.sessionId)}
      onPixPaid={(event) => onPaid?.(event.detail)}
    />
  )
}
