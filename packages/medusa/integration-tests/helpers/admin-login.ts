import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules, generateJwtToken } from "@medusajs/framework/utils";

/** A new admin user's bearer token, as the admin dashboard sends it. */
export async function adminLogin(
  container: MedusaContainer,
  email: string,
): Promise<Record<string, string>> {
  const users = container.resolve(Modules.USER);
  const auth = container.resolve(Modules.AUTH);
  const user = await users.createUsers({ email });
  const identity = await auth.createAuthIdentities({
    provider_identities: [{ provider: "emailpass", entity_id: email }],
    app_metadata: { user_id: user.id },
  });
  const { http } = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE).projectConfig;
  const token = generateJwtToken(
    {
      actor_id: user.id,
      actor_type: "user",
      auth_identity_id: identity.id,
      app_metadata: { user_id: user.id },
    },
    { secret: http.jwtSecret!, expiresIn: "1d" },
  );
  return { authorization: `Bearer ${token}` };
}
