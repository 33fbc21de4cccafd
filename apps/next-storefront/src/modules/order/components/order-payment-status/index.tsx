"use client"

import PixCheckoutClient from "@modules/checkout/components/pix-checkout"
import { useRouter } from "next/navigation"
import { useEffect, useState } from "react"

/** The boleto (or Pix) of an order not yet paid, with its live status. */
export default function OrderPaymentStatus({
  sessionId,
}: {
  sessionId: string
}) {
  const router = useRouter()
  const [paid, setPaid] = useState(false)
  // Medusa records the capture a moment after the payment lands: re-render the page from
  // the server until it shows the payment (the page then stops rendering this component).
  useEffect(() => {
    if (!paid) return
    router.refresh()
    const timer = setInterval(() => router.refresh(), 2000)
    return () => clearInterval(timer)
  }, [paid, router])
  return (
    <PixCheckoutClient
      sessionId={sessionId}
      onPaid={() => setPaid(true)}
      // The merchant canceled the order while its page was open: render it again, so the page
      // says canceled above the element too.
      onCanceled={() => router.refresh()}
    />
  )
}
