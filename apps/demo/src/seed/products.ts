import type { CreateInventoryLevelInput, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules, ProductStatus } from "@medusajs/framework/utils";
import { createInventoryLevelsWorkflow, createProductsWorkflow } from "@medusajs/medusa/core-flows";
import { demoProducts, type DemoProduct } from "./catalog";
import { centsToMedusaAmount } from "./money";

/** Where the seed finds the rest of the store. */
export interface ProductSeedContext {
  salesChannelId: string;
  shippingProfileId: string;
  stockLocationId: string;
  /** Absolute origin the store serves `/static` from, e.g. `http://localhost:9000`. */
  imageOrigin: string;
}

const stockPerVariant = 1000;

function variantsOf(product: DemoProduct) {
  const price = [{ currency_code: "brl", amount: centsToMedusaAmount(product.priceCents) }];
  if (!product.option) {
    return {
      options: [{ title: "Padrão", values: ["Único"] }],
      variants: [{ title: "Único", sku: product.sku, options: { Padrão: "Único" }, prices: price }],
    };
  }
  const { title, values } = product.option;
  return {
    options: [{ title, values }],
    variants: values.map((value) => ({
      title: value,
      sku: `${product.sku}-${value.toUpperCase()}`,
      options: { [title]: value },
      prices: price,
    })),
  };
}

/**
 * Creates the demo products that do not exist yet (matched by handle) and stocks every one
 * of their variants at the demo's location.
 */
export async function seedProducts(
  container: MedusaContainer,
  context: ProductSeedContext,
): Promise<{ created: number }> {
  const productModule = container.resolve(Modules.PRODUCT);
  const query = container.resolve(ContainerRegistrationKeys.QUERY);

  const existing = await productModule.listProducts({
    handle: demoProducts.map((product) => product.handle),
  });
  const missing = demoProducts.filter(
    (product) => !existing.some((found) => found.handle === product.handle),
  );
  // A store started on another port than last time (`--store-port`, the end-to-end suite's
  // free ports) serves the images there: products made before point at it again.
  for (const found of existing) {
    const product = demoProducts.find((candidate) => candidate.handle === found.handle);
    const url = product && `${context.imageOrigin}/static/products/${product.image}`;
    if (url && found.thumbnail !== url) {
      await productModule.updateProducts(found.id, { thumbnail: url, images: [{ url }] });
    }
  }
  if (missing.length > 0) {
    await createProductsWorkflow(container).run({
      input: {
        products: missing.map((product) => ({
          title: product.title,
          handle: product.handle,
          description: product.description,
          status: ProductStatus.PUBLISHED,
          shipping_profile_id: context.shippingProfileId,
          thumbnail: `${context.imageOrigin}/static/products/${product.image}`,
          images: [{ url: `${context.imageOrigin}/static/products/${product.image}` }],
          sales_channels: [{ id: context.salesChannelId }],
          ...variantsOf(product),
        })),
      },
    });
  }

  const { data: variants } = await query.graph({
    entity: "product_variant",
    fields: ["id", "inventory_items.inventory.id", "inventory_items.inventory.location_levels.*"],
    filters: { product: { handle: demoProducts.map((product) => product.handle) } },
  });
  const levels: CreateInventoryLevelInput[] = [];
  for (const variant of variants as {
    inventory_items?: {
      inventory?: { id: string; location_levels?: { location_id: string }[] };
    }[];
  }[]) {
    for (const item of variant.inventory_items ?? []) {
      const inventory = item.inventory;
      if (!inventory) continue;
      const stocked = inventory.location_levels?.some(
        (level) => level.location_id === context.stockLocationId,
      );
      if (!stocked) {
        levels.push({
          inventory_item_id: inventory.id,
          location_id: context.stockLocationId,
          stocked_quantity: stockPerVariant,
        });
      }
    }
  }
  if (levels.length > 0) {
    await createInventoryLevelsWorkflow(container).run({ input: { inventory_levels: levels } });
  }
  return { created: missing.length };
}
