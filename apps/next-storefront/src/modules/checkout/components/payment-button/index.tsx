"use client"

import { isBoleto, isManual, isPix, isStripeLike } from "@lib/constants"
import {
  initiatePaymentSessionOrRefusal,
  placeOrder,
  placeOrderOrRefusal,
} from "@lib/data/cart"
import {
  logRefusal,
  paymentErrorMessage,
} from "@lib/util/payment-error-message"
import { HttpTypes } from "@medusajs/types"
import PixCheckoutClient from "@modules/checkout/components/pix-checkout"
import ErrorMessage from "@modules/checkout/components/error-message"
import { Button } from "@modules/common/components/button"
import { useRouter } from "next/navigation"
import React, { useState, useTransition } from "react"

type PaymentButtonProps = {
  cart: HttpTypes.StoreCart
  "data-testid": string
}

const PaymentButton: React.FC<PaymentButtonProps> = ({
  cart,
  "data-testid": dataTestId,
}) => {
  const notReady =
    !cart ||
    !cart.shipping_address ||
    !cart.billing_address ||
    !cart.email ||
    (cart.shipping_methods?.length ?? 0) < 1

  const paymentSession = cart.payment_collection?.payment_sessions?.[0]

  switch (true) {
    case isStripeLike(paymentSession?.provider_id):
      // The starter renders its StripePaymentButton here; this store has no Stripe.
      return <Button disabled>Pagamento com cartão não configurado</Button>
    case isPix(paymentSession?.provider_id):
      return (
        <PixPaymentButton
          cart={cart}
          notReady={notReady}
          session={paymentSession!}
        />
      )
    case isBoleto(paymentSession?.provider_id):
      return (
        <BoletoPaymentButton
          cart={cart}
          notReady={notReady}
          data-testid={dataTestId}
        />
      )
    case isManual(paymentSession?.provider_id):
      return (
        <ManualTestPaymentButton notReady={notReady} data-testid={dataTestId} />
      )
    default:
      return <Button disabled>Escolha uma forma de pagamento</Button>
  }
}

const PixPaymentButton = ({
  cart,
  notReady,
  session,
}: {
  cart: HttpTypes.StoreCart
  notReady: boolean
  session: HttpTypes.StorePaymentSession
}) => {
  const router = useRouter()
  const [errorMessage, setErrorMessage] = useState<string | null>(null)
  // The session whose code could not be created: the new session's code hides the button
  // again. An expired code needs nothing here: the element offers "Gerar novo código".
  const [failedSessionId, setFailedSessionId] = useState<string | null>(null)
  const [renewing, startRenewing] = useTransition()
  // The code shown was paid but its money goes back: no order comes of it.
  const [refundDue, setRefundDue] = useState(false)

  if (notReady) {
    return <Button disabled>Conclua as etapas acima para pagar com Pix</Button>
  }

  // A Pix code lives for minutes. A new session of the same provider gets a new code
  // (the plugin never hands out an expired one), and the page renders again with it.
  const renew = () =>
    startRenewing(async () => {
      setErrorMessage(null)
      const refusal = await initiatePaymentSessionOrRefusal(cart, {
        provider_id: session.provider_id,
      })
      if (refusal) setErrorMessage(paymentErrorMessage(refusal))
      else router.refresh()
    })

  return (
    <>
      <PixCheckoutClient
        sessionId={session.id}
        onPaid={() => {
          // Only `pix-paid` completes the cart: the element fires it when this cart's live
          // code paid it, and placeOrderOrRefusal goes to the order's confirmation page. A
          // refusal (Medusa would not make the order: an item sold out while the shopper
          // paid) is the element's to tell: it says the store is trying, then the order or
          // the refund. Words of the page's own could only contradict it.
          placeOrderOrRefusal(cart.id).then(
            (refusal) => refusal && logRefusal(refusal)
          )
        }}
        // A replaced code paid anyway: the element says the money goes back, and why; the
        // cart stays open for its current code.
        onRefundDue={() => setRefundDue(true)}
        onFailed={() => setFailedSessionId(session.id)}
      />
      {refundDue && (
        <p className="pix-refund-due-note" data-testid="pix-refund-due-note">
          Este pagamento não conclui o pedido: o valor será devolvido, como
          explicado acima.
        </p>
      )}
      {failedSessionId === session.id && (
        <Button
          onClick={renew}
          isLoading={renewing}
          data-testid="renew-pix-button"
        >
          Gerar novo Pix
        </Button>
      )}
      <ErrorMessage
        error={errorMessage}
        data-testid="pix-payment-error-message"
      />
    </>
  )
}

const BoletoPaymentButton = ({
  cart,
  notReady,
  "data-testid": dataTestId,
}: {
  cart: HttpTypes.StoreCart
  notReady: boolean
  "data-testid"?: string
}) => {
  const [submitting, setSubmitting] = useState(false)
  const [errorMessage, setErrorMessage] = useState<string | null>(null)

  // placeOrderOrRefusal goes to the order's page; it returns only when the store refused.
  const handlePayment = () => {
    setSubmitting(true)
    setErrorMessage(null)
    placeOrderOrRefusal(cart.id)
      .then(
        (refusal) => refusal && setErrorMessage(paymentErrorMessage(refusal))
      )
      .finally(() => setSubmitting(false))
  }

  return (
    <>
      <Button
        disabled={notReady}
        isLoading={submitting}
        onClick={handlePayment}
        data-testid={dataTestId ?? "submit-order-button"}
      >
        Fazer pedido
      </Button>
      <ErrorMessage
        error={errorMessage}
        data-testid="boleto-payment-error-message"
      />
    </>
  )
}

const ManualTestPaymentButton = ({
  notReady,
  "data-testid": dataTestId,
}: {
  notReady: boolean
  "data-testid"?: string
}) => {
  const [submitting, setSubmitting] = useState(false)
  const [errorMessage, setErrorMessage] = useState<string | null>(null)

  const handlePayment = () => {
    setSubmitting(true)
    placeOrder()
      .catch((err) =>
        setErrorMessage(paymentErrorMessage({ message: err.message }))
      )
      .finally(() => setSubmitting(false))
  }

  return (
    <>
      <Button
        disabled={notReady}
        isLoading={submitting}
        onClick={handlePayment}
        data-testid={dataTestId ?? "submit-order-button"}
      >
        Fazer pedido
      </Button>
      <ErrorMessage
        error={errorMessage}
        data-testid="manual-payment-error-message"
      />
    </>
  )
}

export default PaymentButton
