// dist/cjs holds the CommonJS build; this marker makes Node and TypeScript read its .js and
// .d.ts files as CommonJS even though the package itself is "type": "module".
import { writeFileSync } from "node:fs";

writeFileSync(new URL("../dist/cjs/package.json", import.meta.url), '{ "type": "commonjs" }\n');
