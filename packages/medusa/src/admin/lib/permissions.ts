/// <reference lib="dom" />
// What the admin user may do in the plugin's views, so they show no button whose route would
// answer 403. The routes decide (their `policies`, internal/operations/admin-policies.ts); this
// only mirrors them. Medusa's dashboard keeps its own permission hooks to itself (2.21 exports no
// `usePermissions` to extensions), so the views ask what the dashboard asks: whether the `rbac`
// flag is on, and then `GET /admin/rbac/me/permissions`, the user's grants as
// `resource:operation`, wildcards expanded.
import { useQuery } from "@tanstack/react-query";
import {
  ADMIN_ACTIONS,
  permissionOf,
  type AdminAction,
} from "../../internal/operations/admin-policies";
import { sdk } from "./api";

export type { AdminAction } from "../../internal/operations/admin-policies";

/**
 * What Medusa said: its `rbac` flag is off (it checks no route's policies then), or it is on and
 * `GET /admin/rbac/me/permissions` answered this status and, when 200, this body.
 */
export type PermissionsAnswer = { rbac: false } | { rbac: true; status: number; body?: unknown };

const EVERY_ACTION = Object.keys(ADMIN_ACTIONS) as AdminAction[];

/**
 * The plugin's actions the user may take, from Medusa's answer about their grants.
 * - Not answered yet: none (a button appears once allowed, never disappears under a click).
 * - RBAC off: every action, as Medusa checks none.
 * - 200 with a list: each action whose every permission is in it (the routes ask all of them).
 * - Anything else (a refusal, a failure, a body of another shape): none. Hiding a button the user
 *   may use is a nuisance; showing one that answers 403 is the bug this prevents.
 */
export function permittedActions(answer: PermissionsAnswer | undefined): ReadonlySet<AdminAction> {
  if (!answer) return new Set();
  if (!answer.rbac) return new Set(EVERY_ACTION);
  const list = (answer.body as { permissions?: unknown } | undefined)?.permissions;
  if (answer.status !== 200 || !Array.isArray(list)) return new Set();
  const granted = new Set(list.filter((p): p is string => typeof p === "string"));
  return new Set(
    EVERY_ACTION.filter((action) =>
      ADMIN_ACTIONS[action].every((policy) => granted.has(permissionOf(policy))),
    ),
  );
}

/** Reads a path of the admin API as JSON; rejects with an error carrying `status` when refused. */
export type AdminFetch = (path: string) => Promise<unknown>;

/**
 * Asks Medusa as its dashboard does: the feature flags first (`GET /admin/feature-flags`, every
 * Medusa the plugin supports has it), and the user's grants only when `rbac` is on, so a store
 * without RBAC (most) makes no request that fails. A failure answers "none" (fail closed).
 */
export async function askPermissions(fetchJson: AdminFetch): Promise<PermissionsAnswer> {
  try {
    const flags = (await fetchJson("/admin/feature-flags")) as {
      feature_flags?: { rbac?: unknown };
    } | null;
    if (flags?.feature_flags?.rbac !== true) return { rbac: false };
    return { rbac: true, status: 200, body: await fetchJson("/admin/rbac/me/permissions") };
  } catch (error) {
    const status = (error as { status?: unknown } | null)?.status;
    return { rbac: true, status: typeof status === "number" ? status : 0 };
  }
}

/** The query key of the user's permissions (under the plugin's root, so a re-check reads them again). */
export const PERMISSIONS_KEY = ["pix-checkout", "permissions"] as const;

/**
 * `may(action)`: whether the admin user may take one of the plugin's actions (see
 * {@link permittedActions}); `known` once Medusa answered.
 */
export function usePixPermissions(): { may: (action: AdminAction) => boolean; known: boolean } {
  const { data } = useQuery({
    queryKey: PERMISSIONS_KEY,
    queryFn: () => askPermissions((path) => sdk.client.fetch<unknown>(path)),
    staleTime: 60_000,
  });
  const actions = permittedActions(data);
  return { may: (action) => actions.has(action), known: data !== undefined };
}
