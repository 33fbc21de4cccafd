// Medusa loads medusa-config.ts through require(), so the forked worker needs ts-node's
// require hook (transpile only: the plugin package type-checks its own sources).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
require("ts-node").register({ transpileOnly: true });
require("tsconfig-paths").register();
