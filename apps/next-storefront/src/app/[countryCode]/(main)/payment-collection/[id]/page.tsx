import { notFound, redirect } from "next/navigation"

type Props = {
  params: Promise<{ id: string }>
  searchParams: Promise<{ order_id?: string }>
}

// Medusa's "Copy payment link" on an order (an order edit's, exchange's or claim's
// difference, a draft order's total): the plugin's page on the store collects it, with the
// amount read from Medusa and every rule of the store's payment route.
export default async function PaymentCollectionPage(props: Props) {
  const { id } = await props.params
  const { order_id: orderId = "" } = await props.searchParams
  if (
    !/^pay_col_[A-Za-z0-9]{10,40}$/.test(id) ||
    !/^order_[A-Za-z0-9]{10,40}$/.test(orderId)
  ) {
    notFound()
  }
  redirect(
    `${process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL}/pix-checkout/payment-collection/${id}?order_id=${orderId}`
  )
}
