// The store with one unit left of everything, for the scenes where two shoppers pay for the last
// unit (the screenshot scripts' "sold-out").
import { adminCall } from "./admin-api.mjs";

/**
 * Runs `scene` with one unit left of everything: what each location holds is what it has
 * reserved, plus one. Each level is put back afterwards, whatever the scene did, since the
 * screenshot scripts share their database from run to run.
 * @template T
 * @param {string} storeUrl
 * @param {string} token an admin's bearer token
 * @param {() => Promise<T>} scene
 * @returns {Promise<T>}
 */
export async function withOneUnitLeft(storeUrl, token, scene) {
  const { inventory_items: items } = await adminCall(
    storeUrl,
    token,
    "GET",
    "/admin/inventory-items?fields=id,*location_levels&limit=200",
  );
  const levels = items.flatMap((item) =>
    (item.location_levels ?? []).map((level) => ({ item: item.id, ...level })),
  );
  const stock = (level, stocked_quantity) =>
    adminCall(
      storeUrl,
      token,
      "POST",
      `/admin/inventory-items/${level.item}/location-levels/${level.location_id}`,
      { stocked_quantity },
    );
  for (const level of levels) await stock(level, level.reserved_quantity + 1);
  try {
    return await scene();
  } finally {
    for (const level of levels) await stock(level, level.stocked_quantity);
  }
}
