import { redirect } from "next/navigation"

// The starter's middleware sends shoppers to their country's pages; this store sells to Brazil.
export default function Home() {
  redirect("/br")
}
