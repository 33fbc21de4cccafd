#!/usr/bin/env node
// Installs this storefront the way a merchant's own app gets Pix Checkout: the element comes
// from its packed tarball (what `npm install @pix-checkout/element` downloads), not from a
// workspace link, and Next.js and React 19 live in this app's own node_modules. The monorepo's
// root keeps React 18 for Medusa's admin; two Reacts in one tree is what breaks Next.js.
//
// Run after `npm run build` at the root (the tarball packs the element's dist/).
import { spawnSync } from "node:child_process"
import { mkdirSync, renameSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const app = join(dirname(fileURLToPath(import.meta.url)), "..")
const root = join(app, "..", "..")
const packs = join(app, ".packs")

function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}`)
  return result.stdout
}

mkdirSync(packs, { recursive: true })
const packed = JSON.parse(
  run(
    "npm",
    [
      "pack",
      "--json",
      "--pack-destination",
      packs,
      "-w",
      "@pix-checkout/element",
    ],
    root
  )
)
renameSync(
  join(packs, packed[0].filename),
  join(packs, "pix-checkout-element.tgz")
)
// --prefer-offline: what npm's cache holds is used as it is, without asking the registry again.
// On a machine with no network (`unshare -n`) a plain install waited out the registry's
// timeouts for 37 minutes before falling back to that cache; this takes 4 seconds.
run(
  "npm",
  [
    "install",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    "--prefer-offline",
  ],
  app
)
process.stdout.write("next-storefront: installed (element from its tarball)\n")
