import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { MedusaContainer } from "@medusajs/framework/types";

/** The store's name as Medusa holds it (Settings → Store), or null when it has none or cannot say. */
export async function storeName(container: MedusaContainer): Promise<string | null> {
  try {
    const query = container.resolve(ContainerRegistrationKeys.QUERY);
    const { data } = await query.graph({ entity: "store", fields: ["name"] });
    const name = (data[0] as { name?: string | null } | undefined)?.name?.trim();
    return name || null;
  } catch {
    return null;
  }
}
