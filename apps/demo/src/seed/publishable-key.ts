import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import {
  createApiKeysWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
} from "@medusajs/medusa/core-flows";
import { demoNames } from "./catalog";

interface PublishableKeyRow {
  id: string;
  token: string;
  revoked_at: string | null;
  sales_channels?: { id: string }[];
}

/**
 * Makes sure the storefront's publishable key exists and is linked to the sales channel,
 * and returns its token (the `x-publishable-api-key` every `/store` request carries).
 */
export async function seedPublishableKey(
  container: MedusaContainer,
  salesChannelId: string,
): Promise<{ token: string }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "api_key",
    fields: ["id", "token", "revoked_at", "sales_channels.id"],
    filters: { type: "publishable", title: demoNames.publishableKey },
  });
  let key = (data as PublishableKeyRow[]).find((row) => !row.revoked_at);

  if (!key) {
    const { result } = await createApiKeysWorkflow(container).run({
      input: {
        api_keys: [{ title: demoNames.publishableKey, type: "publishable", created_by: "" }],
      },
    });
    const created = result[0];
    if (!created) throw new Error("Could not create the publishable key.");
    key = { id: created.id, token: created.token, revoked_at: null, sales_channels: [] };
  }

  if (!key.sales_channels?.some((channel) => channel.id === salesChannelId)) {
    await linkSalesChannelsToApiKeyWorkflow(container).run({
      input: { id: key.id, add: [salesChannelId] },
    });
  }
  return { token: key.token };
}
