import Medusa from "@medusajs/js-sdk"

// Server-side SDK calls may go to MEDUSA_BACKEND_URL (an address only the server reaches); the
// DTC starter and the guide's own calls use NEXT_PUBLIC_MEDUSA_BACKEND_URL, as the element does.
export const sdk = new Medusa({
  baseUrl:
    process.env.MEDUSA_BACKEND_URL ??
    process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL ??
    "http://localhost:9000",
  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY,
})
