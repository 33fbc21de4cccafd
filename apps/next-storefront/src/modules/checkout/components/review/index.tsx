"use client"

import { isBoleto, isPix } from "@lib/constants"
import { HttpTypes } from "@medusajs/types"
import PaymentButton from "@modules/checkout/components/payment-button"
import { Text } from "@modules/common/components/ui"
import { useSearchParams } from "next/navigation"

/** What the shopper agrees to, and what comes next, for the method they chose. */
const reviewNotice = (providerId?: string) => {
  if (isPix(providerId)) {
    return "Ao pagar o Pix abaixo, você confirma que leu, entendeu e aceita nossos Termos de Uso, Termos de Venda e Política de Devolução, e que leu a Política de Privacidade da Medusa Store. O pedido é feito assim que o pagamento for confirmado."
  }
  if (isBoleto(providerId)) {
    return "Ao clicar em Fazer pedido, você confirma que leu, entendeu e aceita nossos Termos de Uso, Termos de Venda e Política de Devolução, e que leu a Política de Privacidade da Medusa Store. O pedido é feito e a próxima tela mostra o boleto: a linha digitável para pagar no app do banco e o PDF. O pedido é enviado depois que o boleto for pago."
  }
  return "By clicking the Place Order button, you confirm that you have read, understand and accept our Terms of Use, Terms of Sale and Returns Policy and acknowledge that you have read Medusa Store's Privacy Policy."
}

/** The starter's review step: its terms, then the payment button (for Pix, the code). */
const Review = ({ cart }: { cart: HttpTypes.StoreCart }) => {
  const searchParams = useSearchParams()

  const isOpen = searchParams.get("step") === "review"

  const previousStepsCompleted =
    cart.shipping_address &&
    (cart.shipping_methods?.length ?? 0) > 0 &&
    cart.payment_collection

  return (
    <section className="step">
      <h2>Revisão</h2>
      {isOpen && previousStepsCompleted && (
        <>
          <div className="flex items-start gap-x-1 w-full mb-6">
            <div className="w-full">
              <Text className="txt-medium-plus text-ui-fg-base mb-1">
                {reviewNotice(
                  cart.payment_collection?.payment_sessions?.[0]?.provider_id
                )}
              </Text>
            </div>
          </div>
          <PaymentButton cart={cart} data-testid="submit-order-button" />
        </>
      )}
    </section>
  )
}

export default Review
