import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { createUserAccountWorkflow } from "@medusajs/medusa/core-flows";

/** The admin login the demo prints; override with PIX_DEMO_ADMIN_EMAIL / _PASSWORD. */
export interface AdminCredentials {
  email: string;
  password: string;
}

/**
 * Makes sure an admin user with these credentials can log in: creates the email-password
 * identity and the user on the first run, and leaves both alone afterwards.
 */
export async function seedAdminUser(
  container: MedusaContainer,
  credentials: AdminCredentials,
): Promise<{ created: boolean }> {
  const userModule = container.resolve(Modules.USER);
  const authModule = container.resolve(Modules.AUTH);

  const [user] = await userModule.listUsers({ email: credentials.email });
  if (user) return { created: false };

  const { authIdentity, error } = await authModule.register("emailpass", {
    body: { email: credentials.email, password: credentials.password },
  });
  if (error || !authIdentity) {
    throw new Error(`Could not register the admin identity: ${error ?? "no identity returned"}`);
  }
  await createUserAccountWorkflow(container).run({
    input: { authIdentityId: authIdentity.id, userData: { email: credentials.email } },
  });
  return { created: true };
}
