"use server"

import { sdk } from "@lib/config"
import medusaError from "@lib/util/medusa-error"
import { HttpTypes } from "@medusajs/types"
import { revalidateTag } from "next/cache"
import { redirect } from "next/navigation"
import {
  getAuthHeaders,
  getCacheTag,
  getCartId,
  getShopperAddressHeaders,
  removeCartId,
  setCartId,
} from "./cookies"
import { getRegion } from "./regions"
import { paymentErrorMessage } from "@lib/util/payment-error-message"

const CART_FIELDS =
  "*items,*region,*items.product,*items.variant,+items.total,*promotions,*shipping_methods,*payment_collection.payment_sessions"

/** The shopper's cart from its cookie, or null. Never cached: checkout reads it fresh. */
export async function retrieveCart(): Promise<HttpTypes.StoreCart | null> {
  const id = await getCartId()
  if (!id) return null
  return sdk.client
    .fetch<HttpTypes.StoreCartResponse>(`/store/carts/${id}`, {
      method: "GET",
      query: { fields: CART_FIELDS },
      headers: { ...(await getAuthHeaders()) },
      cache: "no-store",
    })
    .then(({ cart }) => cart)
    .catch(() => null)
}

export async function getOrSetCart(countryCode: string) {
  const existing = await retrieveCart()
  if (existing && !existing.completed_at) return existing
  const region = await getRegion(countryCode)
  if (!region) throw new Error(`No region sells to "${countryCode}".`)
  const { cart } = await sdk.store.cart
    .create({ region_id: region.id }, {}, { ...(await getAuthHeaders()) })
    .catch(medusaError)
  await setCartId(cart.id)
  return cart
}

/** Form action of a product card: one unit in the cart, then on to checkout. */
export async function addToCart(formData: FormData) {
  const countryCode = String(formData.get("countryCode") ?? "br")
  const variantId = String(formData.get("variantId") ?? "")
  const cart = await getOrSetCart(countryCode)
  await sdk.store.cart
    .createLineItem(
      cart.id,
      { variant_id: variantId, quantity: 1 },
      {},
      {
        ...(await getAuthHeaders()),
      }
    )
    .catch(medusaError)
  redirect(`/${countryCode}/checkout?step=address`)
}

/** What the address step refuses, in Portuguese: the first field to fix, or null. */
function addressProblem(field: (name: string) => string): string | null {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(field("email")))
    return "Informe um e-mail válido."
  for (const [name, label] of [
    ["first_name", "o nome"],
    ["last_name", "o sobrenome"],
    ["address_1", "o endereço"],
    ["city", "a cidade"],
  ]) {
    if (!field(name)) return `Informe ${label}.`
  }
  if (field("postal_code").replace(/\D/g, "").length !== 8)
    return "Informe o CEP com 8 dígitos."
  // Optional, as in the starter's form; a boleto's payer step asks it when the bank needs it.
  if (field("province") && !/^[A-Za-z]{2}$/.test(field("province")))
    return "Informe o estado com a sigla de 2 letras (UF), como SP."
  return null
}

/** A refused address step: what to fix, in Portuguese, and what the shopper had typed. */
export type AddressRefusal = { message: string; values: Record<string, string> }

/** Form action of the address step: e-mail, shipping address, billing the same. */
export async function setAddresses(
  _current: unknown,
  formData: FormData
): Promise<AddressRefusal | null> {
  const field = (name: string) => String(formData.get(name) ?? "").trim()
  // React empties a form after its action: the refusal hands back what was typed.
  const refused = (message: string) => ({
    message,
    values: Object.fromEntries(
      Array.from(formData.entries()).map(([name, value]) => [
        name,
        String(value),
      ])
    ),
  })
  const cartId = await getCartId()
  if (!cartId)
    return refused(
      "Não encontramos o seu carrinho. Adicione os produtos de novo."
    )
  // Checked here, not only by the browser: no cart goes on without an e-mail and an address.
  const problem = addressProblem(field)
  if (problem) return refused(problem)
  const address = {
    first_name: field("first_name"),
    last_name: field("last_name"),
    address_1: field("address_1"),
    city: field("city"),
    province: field("province").toUpperCase(),
    postal_code: field("postal_code"),
    country_code: field("country_code") || "br",
    phone: field("phone"),
  }
  try {
    await sdk.store.cart.update(
      cartId,
      {
        email: field("email"),
        shipping_address: address,
        billing_address: address,
      },
      {},
      { ...(await getAuthHeaders()) }
    )
  } catch (error) {
    // The store's words are for developers: the server's log has them.
    const failed = error as { status?: number; message?: string }
    return refused(
      paymentErrorMessage({ status: failed.status, message: failed.message })
    )
  }
  redirect(`/${address.country_code}/checkout?step=delivery`)
}

export async function listCartOptions(cartId: string) {
  return sdk.store.fulfillment
    .listCartOptions({ cart_id: cartId }, { ...(await getAuthHeaders()) })
    .then(({ shipping_options }) => shipping_options)
}

/** Form action of the delivery step. */
export async function setShippingMethod(formData: FormData) {
  const cartId = String(formData.get("cartId") ?? "")
  const countryCode = String(formData.get("countryCode") ?? "br")
  await sdk.store.cart
    .addShippingMethod(
      cartId,
      { option_id: String(formData.get("optionId") ?? "") },
      {},
      { ...(await getAuthHeaders()) }
    )
    .catch(medusaError)
  redirect(`/${countryCode}/checkout?step=payment`)
}

export async function listCartPaymentMethods(regionId: string) {
  return sdk.store.payment
    .listPaymentProviders(
      { region_id: regionId },
      { ...(await getAuthHeaders()) }
    )
    .then(({ payment_providers }) => payment_providers)
}

export async function initiatePaymentSession(
  cart: HttpTypes.StoreCart,
  data: HttpTypes.StoreInitializePaymentSession
) {
  return sdk.store.payment
    .initiatePaymentSession(
      cart,
      data,
      {},
      {
        ...(await getAuthHeaders()),
        ...(await getShopperAddressHeaders()),
      }
    )
    .catch(medusaError)
}

/**
 * Why the store refused a payment session, from Medusa's error body: `code` is stable (the
 * plugin's codes are in its README's error table), `message` is written for developers.
 */
export type PaymentSessionRefusal = { code?: string; message: string }

/**
 * Sends a store call (`send` makes a new request each time), and again while the Pix Checkout
 * plugin answers that it is busy for a moment: `store_unavailable` (503, its database) or
 * `collection_busy` (409, another request holds the cart's payment collection). It waits the
 * answer's `Retry-After` (1 s without one, at most 5 s), 3 attempts in all; any other answer,
 * and the last busy one, is returned as it came. The shopper's form keeps what they typed: it
 * waits on this call.
 */
async function fetchWhileBusy(
  send: () => Promise<Response>
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await send()
    if (response.ok || attempt >= 3) return response
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { code?: string } | null
    if (
      body?.code !== "store_unavailable" &&
      body?.code !== "collection_busy"
    ) {
      return response
    }
    const seconds = Math.min(
      Number(response.headers.get("retry-after")) || 1,
      5
    )
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  }
}

/**
 * initiatePaymentSession for a form: returns the store's refusal instead of throwing, because
 * a server action's error reaches the browser of a production build only as "An error occurred
 * in the Server Components render". The session is created with fetch: the SDK's error keeps
 * Medusa's message but drops its `code`, and the shopper's message is chosen by the code.
 */
export async function initiatePaymentSessionOrRefusal(
  cart: HttpTypes.StoreCart,
  data: HttpTypes.StoreInitializePaymentSession
): Promise<PaymentSessionRefusal | null> {
  const headers = {
    ...(await getAuthHeaders()),
    ...(await getShopperAddressHeaders()),
  }

  try {
    const collectionId =
      cart.payment_collection?.id ??
      (
        await sdk.client.fetch<HttpTypes.StorePaymentCollectionResponse>(
          `/store/payment-collections`,
          { method: "POST", headers, body: { cart_id: cart.id } }
        )
      ).payment_collection.id
    const response = await fetchWhileBusy(() =>
      fetch(
        `${process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL}/store/payment-collections/${collectionId}/payment-sessions`,
        {
          method: "POST",
          headers: {
            ...headers,
            "content-type": "application/json",
            "x-publishable-api-key":
              process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY ?? "",
          },
          body: JSON.stringify(data),
          cache: "no-store",
        }
      )
    )
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as {
        code?: string
        message?: string
      }
      return { code: body.code, message: body.message ?? response.statusText }
    }
    revalidateTag(await getCacheTag("carts"))
    return null
  } catch (error) {
    return { message: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Completes the cart of an order placed before it is paid (boleto) and goes to the order's
 * page, or returns the store's refusal, as initiatePaymentSessionOrRefusal does. The request
 * says who the shopper is: the store caps the unpaid orders one client, mailbox or CPF may
 * hold, since each one reserves its stock until the boleto is paid or ends.
 */
export async function placeOrderOrRefusal(
  cartId: string
): Promise<PaymentSessionRefusal> {
  const response = await fetch(
    `${process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL}/store/carts/${cartId}/complete`,
    {
      method: "POST",
      headers: {
        ...(await getAuthHeaders()),
        ...(await getShopperAddressHeaders()),
        "x-publishable-api-key":
          process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY ?? "",
      },
      cache: "no-store",
    }
  ).catch(() => null)
  const body = (await response?.json().catch(() => ({}))) as {
    type?: string
    order?: HttpTypes.StoreOrder
    error?: { message?: string }
    code?: string
    message?: string
  }
  if (response?.ok && body.type === "order" && body.order) {
    await removeCartId()
    const countryCode = body.order.shipping_address?.country_code?.toLowerCase()
    redirect(`/${countryCode}/order/${body.order.id}/confirmed`)
  }
  return {
    code: body?.code,
    message:
      body?.message ?? body?.error?.message ?? "The order could not be placed.",
  }
}

/**
 * The store's Pix discount as the Pix Checkout plugin tells it: `value` is whole percent
 * (`type: "percentage"`) or integer cents (`"fixed"`), `saved` the cents it takes off this
 * cart now (0 unless Pix is the chosen method).
 */
export type PixDiscount = {
  enabled: boolean
  type: "percentage" | "fixed"
  value: number
  saved: number
}

/** The method the cart has recorded (`null` before the shopper picks one), and its discount. */
export type ChosenPaymentMethod = {
  method: "pix" | "boleto" | "other" | null
  pix_discount: PixDiscount
  /**
   * When the store asks the buyer's CPF or CNPJ (the plugin's `buyerDocument` option): for a
   * boleto only, or on every order (Pix too, for the merchant's nota fiscal).
   */
  buyer_document: "boleto" | "every_order"
}

/**
 * Records the shopper's payment method on the cart, so Medusa applies the Pix discount
 * (or removes it) in the cart's totals: one call per method change. Without `providerId`, only
 * reads the method the cart remembers and the discount to show beside the methods.
 */
export async function choosePaymentMethod(
  cartId: string,
  providerId?: string
): Promise<ChosenPaymentMethod | null> {
  const method = providerId?.startsWith("pp_pix_")
    ? "pix"
    : providerId?.startsWith("pp_boleto_")
      ? "boleto"
      : "other"
  const headers = {
    ...(await getAuthHeaders()),
    "content-type": "application/json",
    "x-publishable-api-key":
      process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY ?? "",
  }
  // With fetch, not the SDK: a store busy for a moment is asked again after its Retry-After.
  const response = await fetchWhileBusy(() =>
    fetch(
      // The store's address, as the SDK has it (lib/config.ts).
      `${process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL}/store/pix-checkout/carts/${cartId}/payment-method`,
      providerId
        ? {
            method: "POST",
            headers,
            body: JSON.stringify({ method }),
            cache: "no-store",
          }
        : { method: "GET", headers, cache: "no-store" }
    )
  ).catch(() => null)
  const chosen = response?.ok
    ? ((await response.json().catch(() => null)) as ChosenPaymentMethod | null)
    : null
  if (!chosen) return null
  if (providerId) revalidateTag(await getCacheTag("carts"))
  // A plugin before the option answers without it: a boleto only, as then.
  return {
    method: chosen.method,
    pix_discount: chosen.pix_discount,
    buyer_document: chosen.buyer_document ?? "boleto",
  }
}

/**
 * Completes the cart and goes to the order's page. Completing a cart that the plugin's
 * webhook already completed (Pix, pay-first) answers that same order.
 */
export async function placeOrder(cartId?: string) {
  const id = cartId || (await getCartId())
  if (!id) throw new Error("No existing cart found when placing an order")
  const cartRes = await sdk.store.cart
    .complete(id, {}, { ...(await getAuthHeaders()) })
    .catch(medusaError)
  if (cartRes?.type === "order") {
    const countryCode =
      cartRes.order.shipping_address?.country_code?.toLowerCase()
    await removeCartId()
    redirect(`/${countryCode}/order/${cartRes.order.id}/confirmed`)
  }
  throw new Error(cartRes.error?.message ?? "The order could not be placed.")
}
