import type { ButtonHTMLAttributes } from "react"

/** The storefront's button; the DTC starter uses `Button` from `@medusajs/ui` in its place. */
export function Button({
  isLoading,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { isLoading?: boolean }) {
  return (
    <button className="button" aria-busy={isLoading || undefined} {...props}>
      {isLoading ? "…" : children}
    </button>
  )
}
