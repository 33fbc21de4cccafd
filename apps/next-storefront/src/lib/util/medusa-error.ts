/** Turns an SDK error into an Error whose message is the store's own (as in the DTC starter). */
export default function medusaError(error: unknown): never {
  const message =
    error && typeof error === "object" && "message" in error
      ? String((error as { message: unknown }).message)
      : String(error)
  throw new Error(message.charAt(0).toUpperCase() + message.slice(1))
}
