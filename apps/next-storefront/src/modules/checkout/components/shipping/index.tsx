import { setShippingMethod } from "@lib/data/cart"
import { HttpTypes } from "@medusajs/types"
import { Button } from "@modules/common/components/button"
import { convertToLocale } from "@lib/util/money"

const money = (amount: number, currency: string) =>
  convertToLocale({ amount, currency_code: currency })

/** The delivery options Medusa offers for this cart. */
export default function Shipping({
  cart,
  options,
  isOpen,
  countryCode,
}: {
  cart: HttpTypes.StoreCart
  options: HttpTypes.StoreCartShippingOption[]
  isOpen: boolean
  countryCode: string
}) {
  const chosen = cart.shipping_methods?.[0]
  if (!isOpen) {
    return (
      <section className="step">
        <h2>Entrega</h2>
        <p>{chosen?.name ?? "—"}</p>
      </section>
    )
  }
  return (
    <section className="step">
      <h2>Entrega</h2>
      <form action={setShippingMethod}>
        <input type="hidden" name="cartId" value={cart.id} />
        <input type="hidden" name="countryCode" value={countryCode} />
        {options.map((option, index) => (
          <label className="radio" key={option.id}>
            <input
              type="radio"
              name="optionId"
              value={option.id}
              // Back on this step, the option the cart already has stays chosen.
              defaultChecked={
                chosen ? option.id === chosen.shipping_option_id : index === 0
              }
              data-testid="delivery-option-radio"
            />
            {option.name} ·{" "}
            {money(option.amount, cart.currency_code.toUpperCase())}
          </label>
        ))}
        <Button type="submit" data-testid="submit-delivery-option-button">
          Continuar para o pagamento
        </Button>
      </form>
    </section>
  )
}
