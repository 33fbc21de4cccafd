// Medusa loads medusa-config.ts and the project's TypeScript through require(), so the
// forked test worker needs ts-node's require hook (transpile only: tsc already type-checks).
import { createRequire } from "node:module";
import { restoreTestDatabasesByRename } from "./integration-tests/helpers/restore-by-rename";

const require = createRequire(__filename);
require("ts-node").register({ transpileOnly: true });
require("tsconfig-paths").register();

// Each test's fresh database is made by renaming the used one aside rather than dropping it
// first (integration-tests/helpers/restore-by-rename.ts).
restoreTestDatabasesByRename();
