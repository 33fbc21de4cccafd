import type { HTMLAttributes } from "react"

/** The starter's `Text` (from `@medusajs/ui` there): a paragraph. */
export function Text(props: HTMLAttributes<HTMLParagraphElement>) {
  return <p {...props} />
}
