"use client"

import type { PixPaidDetail } from "@pix-checkout/element"
import dynamic from "next/dynamic"
import { useEffect, useRef, useState } from "react"

const PixCheckout = dynamic(
  () => import("@pix-checkout/element/react").then((m) => m.PixCheckout),
  { ssr: false, loading: () => <p>Carregando pagamento…</p> }
)

type Props = {
  sessionId: string
  /**
   * `pix-paid`: this code paid the cart, the only time to complete it. A code the cart replaced,
   * paid anyway, never fires it.
   */
  onPaid?: (detail: PixPaidDetail) => void
  /**
   * `pix-refund-due`: the code shown was paid, but its money goes back (a code the cart
   * replaced): the element says how much and why. Never complete the cart on it.
   */
  onRefundDue?: () => void
  /** The code's create failed: offer a new one (an expired code, the element renews itself). */
  onFailed?: () => void
  /** The code ended with its order, which the merchant canceled: the page may say so too. */
  onCanceled?: () => void
}

/** Shows a Pix code or a boleto with its live status, from the plugin's store routes. */
export default function PixCheckoutClient({
  sessionId,
  onPaid,
  onRefundDue,
  onFailed,
  onCanceled,
}: Props) {
  // "Ver o código atual" on a replaced code, and "Gerar novo código" on an expired one, move
  // the element to the cart's current session; keep it there across re-renders instead of
  // handing it the old id again.
  const [shown, setShown] = useState(sessionId)
  useEffect(() => setShown(sessionId), [sessionId])
  // The starter moves between its steps without scrolling, and the order page opens as far
  // down as the review step was: on a phone the code could start below the screen, or the
  // boleto above it. When the payment first shows, bring it to the top of the screen unless
  // it already is in the screen's upper third (the margin clears the starter's sticky header).
  const box = useRef<HTMLDivElement>(null)
  const placed = useRef(false)
  const bringIntoView = () => {
    if (placed.current) return
    placed.current = true
    // After the element has drawn the payment, so the page is as long as it will be.
    requestAnimationFrame(() => {
      const top = box.current?.getBoundingClientRect().top ?? 0
      if (top < 64 || top > window.innerHeight / 3) {
        box.current?.scrollIntoView({ block: "start" })
      }
    })
  }
  return (
    <div ref={box} style={{ scrollMarginTop: 80 }}>
      <PixCheckout
        backendUrl={process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL!}
        publishableKey={process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY!}
        sessionId={shown}
        onPixStatusChange={(event) => {
          bringIntoView()
          setShown(event.detail.session.session_id)
          if (event.detail.status === "failed") onFailed?.()
          if (event.detail.status === "canceled") onCanceled?.()
        }}
        onPixRenewed={(event) => setShown(event.detail.sessionId)}
        onPixPaid={(event) => onPaid?.(event.detail)}
        onPixRefundDue={() => onRefundDue?.()}
      />
    </div>
  )
}
