// Where the demo keeps things. Everything it writes lives under apps/demo/.data (gitignored).
import { fileURLToPath } from "node:url";

/** apps/demo: the Medusa app's root, where its CLI runs. */
export const demoRoot = fileURLToPath(new URL("..", import.meta.url));

/** apps/demo/.data: logs, the embedded database, the sandbox's state, the seed's output. */
export const dataDir = fileURLToPath(new URL("../.data", import.meta.url));

/** apps/demo/storefront: the Vite storefront's root. */
export const storefrontRoot = fileURLToPath(new URL("../storefront", import.meta.url));
