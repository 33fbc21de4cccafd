/// <reference lib="dom" />
// What the admin user may do in the plugin's views, so they show no button whose route would
// answer 403. The routes decide (their `policies`, internal/operations/admin-policies.ts); this
// only mirrors them. Medusa's dashboard keeps its own permission hooks to itself (2.21 exports no
// `usePermissions` to extensions), so the views ask the route the dashboard asks:
// `GET /admin/rbac/me/permissions`, the user's grants as `resource:operation`, wildcards expanded.
import { useQuery } from "@tanstack/react-query";
import {
  ADMIN_ACTIONS,
  permissionOf,
  type AdminAction,
} from "../../internal/operations/admin-policies";
import { sdk } from "./api";

export type { AdminAction } from "../../internal/operations/admin-policies";

/** What `GET /admin/rbac/me/permissions` answered: its status, and its body when 200. */
export interface PermissionsAnswer {
  status: number;
  body?: unknown;
}

const EVERY_ACTION = Object.keys(ADMIN_ACTIONS) as AdminAction[];

/**
 * The plugin's actions the user may take, from Medusa's answer about their grants.
 * - Not answered yet: none (a button appears once allowed, never disappears under a click).
 * - 404: Medusa has no such route because its `rbac` flag is off, and then it checks no route's
 *   policies either: every action.
 * - 200 with a list: each action whose every permission is in it (the routes ask all of them).
 * - Anything else (a failure, a body of another shape): none. Hiding a button the user may use is
 *   a nuisance; showing one that answers 403 is the bug this prevents.
 */
export function permittedActions(answer: PermissionsAnswer | undefined): ReadonlySet<AdminAction> {
  if (!answer) return new Set();
  if (answer.status === 404) return new Set(EVERY_ACTION);
  const list = (answer.body as { permissions?: unknown } | undefined)?.permissions;
  if (answer.status !== 200 || !Array.isArray(list)) return new Set();
  const granted = new Set(list.filter((p): p is string => typeof p === "string"));
  return new Set(
    EVERY_ACTION.filter((action) =>
      ADMIN_ACTIONS[action].every((policy) => granted.has(permissionOf(policy))),
    ),
  );
}

/** The query key of the user's permissions (under the plugin's root, so a re-check reads them again). */
export const PERMISSIONS_KEY = ["pix-checkout", "permissions"] as const;

/** Asks Medusa for the user's grants; a 404 is an answer (RBAC off), not an error. */
async function askPermissions(): Promise<PermissionsAnswer> {
  try {
    return { status: 200, body: await sdk.client.fetch<unknown>("/admin/rbac/me/permissions") };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    return { status: typeof status === "number" ? status : 0 };
  }
}

/**
 * `may(action)`: whether the admin user may take one of the plugin's actions (see
 * {@link permittedActions}); `known` once Medusa answered.
 */
export function usePixPermissions(): { may: (action: AdminAction) => boolean; known: boolean } {
  const { data } = useQuery({
    queryKey: PERMISSIONS_KEY,
    queryFn: askPermissions,
    staleTime: 60_000,
  });
  const actions = permittedActions(data);
  return { may: (action) => actions.has(action), known: data !== undefined };
}
