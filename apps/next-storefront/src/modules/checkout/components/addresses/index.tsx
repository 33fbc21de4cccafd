"use client"

import { setAddresses } from "@lib/data/cart"
import { HttpTypes } from "@medusajs/types"
import ErrorMessage from "@modules/checkout/components/error-message"
import { Button } from "@modules/common/components/button"
import { useActionState } from "react"

// The state is optional, as in the starter's form (a boleto's payer step asks it when needed).
const FIELDS = [
  ["email", "E-mail", "email"],
  ["first_name", "Nome", "text"],
  ["last_name", "Sobrenome", "text"],
  ["address_1", "Endereço", "text"],
  ["postal_code", "CEP", "text"],
  ["city", "Cidade", "text"],
  ["province", "Estado (UF, opcional)", "text"],
  ["phone", "Telefone", "tel"],
] as const

/** E-mail and shipping address; billing is the same address, as the starter's default. */
export default function Addresses({
  cart,
  isOpen,
}: {
  cart: HttpTypes.StoreCart
  isOpen: boolean
}) {
  const [refusal, formAction, pending] = useActionState(setAddresses, null)
  const address = cart.shipping_address
  if (!isOpen) {
    return (
      <section className="step">
        <h2>Endereço de entrega</h2>
        <p data-testid="address-summary">
          {address
            ? `${address.first_name} ${address.last_name}, ${address.address_1}, ${address.city}`
            : "—"}
        </p>
      </section>
    )
  }
  const initial: Record<string, string | undefined> = {
    email: cart.email,
    first_name: address?.first_name,
    last_name: address?.last_name,
    address_1: address?.address_1,
    postal_code: address?.postal_code,
    city: address?.city,
    province: address?.province,
    phone: address?.phone,
    // After a refusal, what the shopper typed, not the cart's.
    ...refusal?.values,
  }
  return (
    <section className="step">
      <h2>Endereço de entrega</h2>
      <form className="fields" action={formAction}>
        {FIELDS.map(([name, label, type]) => (
          <label key={name}>
            {label}
            <input
              name={name}
              type={type}
              required={name !== "province"}
              defaultValue={initial[name] ?? ""}
              data-testid={`shipping-${name}-input`}
            />
          </label>
        ))}
        <input type="hidden" name="country_code" value="br" />
        <ErrorMessage
          error={refusal?.message}
          data-testid="address-error-message"
        />
        <Button
          type="submit"
          isLoading={pending}
          data-testid="submit-address-button"
        >
          Continuar para a entrega
        </Button>
      </form>
    </section>
  )
}
