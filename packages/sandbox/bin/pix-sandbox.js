#!/usr/bin/env node
// A committed entry point, so npm can link the bin on a fresh clone before `prepare` has built
// dist/ (npm links bins first and skips targets that do not exist yet).
await import("../dist/cli.js");
