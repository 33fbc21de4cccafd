import Medusa from "@medusajs/js-sdk"

// Server-side calls go to MEDUSA_BACKEND_URL (as in the DTC starter); the browser-side
// element uses NEXT_PUBLIC_MEDUSA_BACKEND_URL, which is usually the same address.
export const sdk = new Medusa({
  baseUrl:
    process.env.MEDUSA_BACKEND_URL ??
    process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL ??
    "http://localhost:9000",
  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY,
})
