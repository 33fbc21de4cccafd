// Medusa loads medusa-config.ts and the project's TypeScript through require(), so the
// forked test worker needs ts-node's require hook (transpile only: tsc already type-checks).
import { createRequire } from "node:module";

const require = createRequire(__filename);
require("ts-node").register({ transpileOnly: true });
require("tsconfig-paths").register();
