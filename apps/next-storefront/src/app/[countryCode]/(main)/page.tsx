import { addToCart } from "@lib/data/cart"
import { listProducts } from "@lib/data/products"
import { getRegion } from "@lib/data/regions"
import { Button } from "@modules/common/components/button"
import { notFound } from "next/navigation"
import { convertToLocale } from "@lib/util/money"

export const dynamic = "force-dynamic"

const money = (amount: number, currency: string) =>
  convertToLocale({ amount, currency_code: currency })

export default async function StorePage(props: {
  params: Promise<{ countryCode: string }>
}) {
  const { countryCode } = await props.params
  const region = await getRegion(countryCode)
  if (!region) notFound()
  const products = await listProducts(region.id)
  return (
    <>
      <h1>Loja</h1>
      <ul className="products">
        {products.map((product) => {
          const variant = product.variants?.[0]
          const price = variant?.calculated_price
          return (
            <li key={product.id} data-testid="product">
              <h2>{product.title}</h2>
              {price?.calculated_amount != null && (
                <p>
                  {money(
                    price.calculated_amount,
                    region.currency_code.toUpperCase()
                  )}
                </p>
              )}
              <form action={addToCart}>
                <input type="hidden" name="countryCode" value={countryCode} />
                <input
                  type="hidden"
                  name="variantId"
                  value={variant?.id ?? ""}
                />
                <Button type="submit" data-testid="add-to-cart">
                  Buy {product.title}
                </Button>
              </form>
            </li>
          )
        })}
      </ul>
    </>
  )
}
