"use client"

import { isBoleto, isPix, isStripeLike, paymentInfoMap } from "@lib/constants"
import {
  initiatePaymentSession,
  initiatePaymentSessionOrRefusal,
} from "@lib/data/cart"
import { choosePaymentMethod, type PixDiscount } from "@lib/data/cart"
import { paymentErrorMessage } from "@lib/util/payment-error-message"
import { HttpTypes } from "@medusajs/types"
import { Button } from "@modules/common/components/button"
import ErrorMessage from "@modules/checkout/components/error-message"
import { usePathname, useRouter, useSearchParams } from "next/navigation"
import { useEffect, useState, type ReactNode } from "react"

const brl = (cents: number) =>
  new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(
    cents / 100
  )

/**
 * "5 % de desconto no Pix" (or "R$ 10,00 de desconto no Pix" for a fixed discount), and once
 * Pix is chosen, what it saves on this cart: the boleto's total minus the Pix code's.
 */
function pixDiscountLabel(discount: PixDiscount | null) {
  if (!discount?.enabled || discount.value <= 0) return null
  const amount =
    discount.type === "percentage" ? `${discount.value} %` : brl(discount.value)
  const saved =
    discount.saved > 0 ? ` · você economiza ${brl(discount.saved)}` : ""
  return `${amount} de desconto no Pix${saved}`
}

/** The starter's payment-method list (a `RadioGroup` from `@medusajs/ui` there). */
function RadioGroup({ children }: { children: ReactNode }) {
  return (
    <fieldset className="radio-group">
      <legend>Forma de pagamento</legend>
      {children}
    </fieldset>
  )
}

const Payment = ({
  cart,
  availablePaymentMethods,
}: {
  cart: HttpTypes.StoreCart
  availablePaymentMethods: HttpTypes.StorePaymentProvider[]
}) => {
  const activeSession = cart.payment_collection?.payment_sessions?.find(
    (paymentSession) => paymentSession.status === "pending"
  )

  const [isLoading, setIsLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [selectedPaymentMethod, setSelectedPaymentMethod] = useState(
    activeSession?.provider_id ?? ""
  )
  const [payer, setPayer] = useState({
    document: "",
    neighborhood: "",
    number: "",
  })
  // "Mesmo endereço da entrega": the boleto's payer is the cart's address (the plugin fills it
  // from the cart), checked when the cart has one; unchecked, the payer's own address.
  const [sameAddress, setSameAddress] = useState(
    !!cart.shipping_address?.address_1
  )
  const [billing, setBilling] = useState({
    address_1: "",
    postal_code: "",
    city: "",
    province: "",
  })
  // Whether the store asks the CPF or CNPJ for Pix too (a nota fiscal on every order).
  const [buyerDocument, setBuyerDocument] = useState<"boleto" | "every_order">(
    "boleto"
  )

  const [pixDiscount, setPixDiscount] = useState<PixDiscount | null>(null)

  const searchParams = useSearchParams()
  const router = useRouter()
  const pathname = usePathname()
  const isOpen = searchParams.get("step") === "payment"

  // The discount to show beside Pix, before the shopper picks a method. After a reload, the
  // method the shopper had picked: the cart remembers it (its totals already carry the Pix
  // discount), so pick it again unless a session or the shopper chose another. Keyed by the
  // methods' ids, not the list: each router.refresh() hands the component a new list.
  const methodIds = availablePaymentMethods.map((m) => m.id).join(" ")
  useEffect(() => {
    if (!isOpen) return
    choosePaymentMethod(cart.id).then((chosen) => {
      setPixDiscount(chosen?.pix_discount ?? null)
      setBuyerDocument(chosen?.buyer_document ?? "boleto")
      const remembered = methodIds
        .split(" ")
        .find(
          (id) =>
            (chosen?.method === "pix" && isPix(id)) ||
            (chosen?.method === "boleto" && isBoleto(id))
        )
      if (remembered) setSelectedPaymentMethod((now) => now || remembered)
    })
  }, [isOpen, cart.id, methodIds])

  const setPaymentMethod = async (method: string) => {
    setError(null)
    setSelectedPaymentMethod(method)
    // Medusa re-prices the cart for this method (the Pix discount on or off).
    const chosen = await choosePaymentMethod(cart.id, method)
    setPixDiscount(chosen?.pix_discount ?? null)
    router.refresh()
    if (isStripeLike(method)) {
      await initiatePaymentSession(cart, {
        provider_id: method,
      })
    }
  }

  // One CPF/CNPJ field for both methods: a boleto always asks it, Pix when the store does
  // (and its session has no code yet: the code on the review step already carries it).
  const asksDocument =
    isBoleto(selectedPaymentMethod) ||
    (isPix(selectedPaymentMethod) &&
      buyerDocument === "every_order" &&
      activeSession?.provider_id !== selectedPaymentMethod)

  // The starter's address form leaves the state optional, and a boleto's payer needs one: at
  // the delivery address, the step asks just the state when that address has none.
  const asksState = sameAddress && !cart.shipping_address?.province?.trim()

  /** What the session's `data` carries: the document, and a boleto's payer details. */
  const sessionData = () => {
    if (isBoleto(selectedPaymentMethod)) {
      if (sameAddress && !asksState) return payer
      const delivery = cart.shipping_address
      return {
        ...payer,
        billing_address: {
          first_name: delivery?.first_name ?? "",
          last_name: delivery?.last_name ?? "",
          phone: delivery?.phone ?? "",
          // The payer's own address, or the delivery's with the state typed here: the store
          // fills the payer from the cart only when the session sends no billing_address.
          ...(sameAddress
            ? {
                address_1: delivery?.address_1 ?? "",
                address_2: delivery?.address_2 ?? "",
                postal_code: delivery?.postal_code ?? "",
                city: delivery?.city ?? "",
                province: billing.province,
              }
            : billing),
        },
      }
    }
    return asksDocument ? { document: payer.document } : undefined
  }

  const handleSubmit = async () => {
    // A boleto's missing fields are named by the store's refusal, all at once.
    if (
      isPix(selectedPaymentMethod) &&
      asksDocument &&
      !payer.document.trim()
    ) {
      setError("Informe o CPF ou CNPJ.")
      return
    }
    setIsLoading(true)
    setError(null)
    try {
      const shouldInputCard =
        isStripeLike(selectedPaymentMethod) && !activeSession

      const checkActiveSession =
        activeSession?.provider_id === selectedPaymentMethod

      const data = sessionData()
      if (!checkActiveSession || data) {
        const refusal = await initiatePaymentSessionOrRefusal(cart, {
          provider_id: selectedPaymentMethod,
          ...(data ? { data } : {}),
        })
        if (refusal) {
          setError(paymentErrorMessage(refusal))
          return
        }
      }

      if (!shouldInputCard) {
        return router.push(pathname + "?step=review", { scroll: false })
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setIsLoading(false)
    }
  }

  if (!isOpen) {
    return (
      <section className="step" data-testid="payment-summary">
        <h2>Pagamento</h2>
        <p>
          {activeSession
            ? (paymentInfoMap[activeSession.provider_id]?.title ??
              activeSession.provider_id)
            : "—"}
        </p>
      </section>
    )
  }

  return (
    <section className="step">
      <h2>Pagamento</h2>
      <RadioGroup>
        {availablePaymentMethods.map((method) => (
          <label key={method.id} className="radio">
            <input
              type="radio"
              name="payment-method"
              value={method.id}
              checked={method.id === selectedPaymentMethod}
              onChange={() => setPaymentMethod(method.id)}
              data-testid={`payment-method-${method.id}`}
            />
            {paymentInfoMap[method.id]?.icon}
            {paymentInfoMap[method.id]?.title ?? method.id}
          </label>
        ))}
      </RadioGroup>
      {pixDiscountLabel(pixDiscount) && (
        <p
          className="pix-discount mt-4 inline-block rounded-md border border-ui-tag-green-border bg-ui-tag-green-bg px-2 text-ui-tag-green-text txt-compact-small-plus"
          data-testid="pix-discount-label"
        >
          {pixDiscountLabel(pixDiscount)}
        </p>
      )}
      {asksDocument && (
        <div className="grid grid-cols-1 sm:grid-cols-2 gap-4 mt-4">
          {/* A CNPJ is 18 characters: it keeps a row of its own. */}
          <label className="flex flex-col txt-compact-small sm:col-span-2">
            CPF ou CNPJ
            <input
              className="border rounded-md px-2 h-10"
              name="document"
              required
              autoComplete="off"
              value={payer.document}
              onChange={(e) => setPayer({ ...payer, document: e.target.value })}
              data-testid="buyer-document-input"
            />
          </label>
          {isPix(selectedPaymentMethod) && (
            <p className="txt-compact-small sm:col-span-2">
              A nota fiscal sai no CPF ou CNPJ informado.
            </p>
          )}
        </div>
      )}
      {isBoleto(selectedPaymentMethod) && (
        <div className="grid grid-cols-1 sm:grid-cols-2 gap-4 mt-4">
          {/* The starter's address has no separate number or neighborhood: the boleto asks them. */}
          {(
            [
              ["neighborhood", "Bairro"],
              ["number", "Número"],
            ] as const
          ).map(([field, label]) => (
            <label key={field} className="flex flex-col txt-compact-small">
              {label}
              <input
                className="border rounded-md px-2 h-10"
                name={field}
                required
                value={payer[field]}
                onChange={(e) =>
                  setPayer({ ...payer, [field]: e.target.value })
                }
                data-testid={`boleto-${field}-input`}
              />
            </label>
          ))}
          <label className="flex items-center gap-2 txt-compact-small sm:col-span-2">
            <input
              type="checkbox"
              checked={sameAddress}
              onChange={(e) => setSameAddress(e.target.checked)}
              data-testid="boleto-same-address-checkbox"
            />
            Mesmo endereço da entrega
          </label>
          {(
            [
              ["address_1", "Endereço", "sm:col-span-2"],
              ["postal_code", "CEP", ""],
              ["city", "Cidade", ""],
              ["province", "Estado (UF)", ""],
            ] as const
          )
            // The payer's own address asks all four; the delivery's, only a state it lacks.
            .filter(
              ([field]) => !sameAddress || (asksState && field === "province")
            )
            .map(([field, label, span]) => (
              <label
                key={field}
                className={`flex flex-col txt-compact-small ${span}`}
              >
                {label}
                <input
                  className="border rounded-md px-2 h-10"
                  name={`billing-${field}`}
                  required
                  value={billing[field]}
                  onChange={(e) =>
                    setBilling({ ...billing, [field]: e.target.value })
                  }
                  data-testid={`boleto-billing-${field}-input`}
                />
              </label>
            ))}
        </div>
      )}
      <ErrorMessage error={error} data-testid="payment-method-error-message" />
      <Button
        onClick={handleSubmit}
        isLoading={isLoading}
        disabled={!selectedPaymentMethod}
        data-testid="submit-payment-button"
      >
        Continuar para a revisão
      </Button>
    </section>
  )
}

export default Payment
