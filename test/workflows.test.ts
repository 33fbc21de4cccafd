// The release workflow publishes with no stored token (RELEASING.md). Every workflow under
// .github/workflows keeps to the rules that make that safe: an action is pinned to a commit,
// since a tag can be moved to code nobody reviewed; a checkout leaves no token in .git/config
// for the steps after it; no npm token comes from a secret, since npm's trusted publishing
// needs none; the file sets its top-level permissions, so a job gets only what it names; and a
// job that can ask for an OIDC token (`id-token: write`, the whole credential of a trusted
// publish) runs no code of the repository or of a dependency, so a build tool or an install
// script never runs where it could mint a publish token.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type Document, LineCounter, isMap, isScalar, parse, parseDocument, visit } from "yaml";

const root = path.resolve(__dirname, "..");
const folder = path.join(root, ".github", "workflows");
const files = readdirSync(folder).filter((file) => /\.ya?ml$/.test(file));

/** `owner/repo[/path]@<40 hex>`: a commit, not a tag or a branch. */
const PINNED = /^[\w.-]+\/[\w.-]+(\/[^@\s]+)?@[0-9a-f]{40}$/;
/** A container image by digest. */
const DOCKER_PINNED = /^docker:\/\/[^@\s]+@sha256:[0-9a-f]{64}$/;
/** The comment after a pin, naming the release it is: `# v7.0.1`. */
const VERSION_COMMENT = /^\s*v?\d+(\.\d+)*\b/;
/** Environment variables npm reads a token from. */
const NPM_TOKEN_VARIABLE = /^(NODE_AUTH_TOKEN|NPM_TOKEN)$|^npm_config_.*(auth|token)/i;
/** A secret with an npm token in it, by the names such secrets go by. */
const NPM_SECRET = /secrets\.(\w*npm\w*|NODE_AUTH_TOKEN)\b/i;

/** The part of a workflow these rules read. */
interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  permissions?: unknown;
  steps?: Step[];
}
interface Workflow {
  permissions?: unknown;
  jobs?: Record<string, Job>;
}

/** Whether a job's permissions (its own, or else the workflow's) let it ask for an OIDC token. */
function holdsIdToken(workflow: Workflow, job: Job): boolean {
  const permissions = job.permissions ?? workflow.permissions;
  if (permissions === "write-all") return true;
  return (
    typeof permissions === "object" &&
    permissions !== null &&
    (permissions as Record<string, unknown>)["id-token"] === "write"
  );
}

/** What in a `run` would run code of the repository or of a dependency, and why. */
const RUNS_CODE: [RegExp, string][] = [
  [
    /\bnpm\s+(run|run-script|rum|urn|test|tst|t|start|stop|restart|exec|x|explore|rebuild|rb)\b/,
    "runs a package's script or code",
  ],
  [/\b(npx|pnpm|yarn|bunx?)\b/, "runs a package's code"],
  // `node -p` and `node -e` run the workflow's own line; `node <file>` runs a file.
  [/\bnode\s+(?!-)/, "runs a file with node"],
];
/** npm commands that run lifecycle scripts (the packages' or the dependencies') by default. */
const RUNS_SCRIPTS = /\bnpm\s+(ci|install|isntall|i|in|add|update|up|dedupe|link|pack|publish)\b/;

/** The shell commands of a `run`: its lines, continuations joined, split at `;`, `&&`, `||`, `|`. */
function commandsOf(run: string): string[] {
  return run
    .replace(/\\\n/g, " ")
    .split(/\n|;|&&|\|\|?/)
    .map((command) => command.trim())
    .filter(Boolean);
}

/**
 * Every step of a job with `id-token: write` that could run the repository's code or a
 * dependency's: a checkout (whatever runs after it can run the repository's files), an action
 * of the repository (`uses: ./…`), a package script, `node <file>`, or an npm command that runs
 * lifecycle scripts without --ignore-scripts. Such a job takes what it publishes as artifacts
 * from a job without the token.
 */
function idTokenProblems(document: Document, at: (path: (string | number)[]) => string) {
  const workflow = document.toJS() as Workflow;
  const problems: string[] = [];
  for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
    if (!job || !holdsIdToken(workflow, job)) continue;
    for (const [index, step] of (job.steps ?? []).entries()) {
      const where = (key: string) => `${at(["jobs", name, "steps", index, key])}: job ${name}`;
      if (step.uses?.startsWith("actions/checkout@")) {
        problems.push(
          `${where("uses")} holds id-token: write and checks out the repository (build in a ` +
            `job without the token and hand over artifacts)`,
        );
      }
      if (step.uses?.startsWith("./")) {
        problems.push(`${where("uses")} holds id-token: write and runs ${step.uses}`);
      }
      for (const command of commandsOf(step.run ?? "")) {
        for (const [pattern, what] of RUNS_CODE) {
          if (pattern.test(command)) {
            problems.push(`${where("run")} holds id-token: write and ${what}: ${command}`);
          }
        }
        if (RUNS_SCRIPTS.test(command) && !/\s--ignore-scripts(=true)?(\s|$)/.test(command)) {
          problems.push(
            `${where("run")} holds id-token: write and runs lifecycle scripts (add ` +
              `--ignore-scripts): ${command}`,
          );
        }
      }
    }
  }
  return problems;
}

/** Every rule a workflow breaks, each as "line N: what". */
function problemsOf(text: string): string[] {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  if (document.errors.length > 0) return document.errors.map((error) => error.message);
  const problems: string[] = [];
  const at = (node: { range?: [number, number, number] | null } | null | undefined) =>
    `line ${node?.range ? lines.linePos(node.range[0]).line : "?"}`;

  const workflow: unknown = document.toJS();
  if (typeof workflow !== "object" || workflow === null || !("permissions" in workflow)) {
    problems.push(
      "no top-level permissions (write `permissions: {}`, then grant each job its own)",
    );
  } else if (workflow.permissions === "write-all") {
    problems.push("top-level permissions: write-all");
  }

  visit(document, {
    Pair(_, pair) {
      if (!isScalar(pair.key)) return;
      const key = String(pair.key.value);
      const value = isScalar(pair.value) ? pair.value : null;

      if (key === "uses" && value) {
        const uses = String(value.value);
        if (uses.startsWith("./")) return;
        if (uses.startsWith("docker://")) {
          if (!DOCKER_PINNED.test(uses)) problems.push(`${at(value)}: ${uses} is not by digest`);
          return;
        }
        if (!PINNED.test(uses)) {
          problems.push(`${at(value)}: ${uses} is not pinned to a full commit SHA`);
        } else if (!VERSION_COMMENT.test(value.comment ?? "")) {
          problems.push(`${at(value)}: ${uses} has no "# vX.Y.Z" comment naming its release`);
        }
      }

      if (NPM_TOKEN_VARIABLE.test(key)) {
        problems.push(`${at(pair.key)}: sets ${key}, an npm token (trusted publishing needs none)`);
      }
    },
    Scalar(_, scalar) {
      if (typeof scalar.value !== "string") return;
      const secret = NPM_SECRET.exec(scalar.value);
      if (secret) problems.push(`${at(scalar)}: reads ${secret[0]}, an npm token`);
      if (scalar.value.includes("_authToken")) {
        problems.push(`${at(scalar)}: writes an npm _authToken`);
      }
    },
    Map(_, map) {
      // A step that checks out: `persist-credentials: false`, or the token stays in
      // .git/config for every later step (and every install script) to read.
      const uses = map.get("uses");
      if (typeof uses !== "string" || !uses.startsWith("actions/checkout@")) return;
      const inputs = map.get("with");
      const persist = isMap(inputs) ? inputs.get("persist-credentials") : undefined;
      if (persist !== false && persist !== "false") {
        const node = map.items.find((item) => isScalar(item.key) && item.key.value === "uses");
        const key = node && isScalar(node.key) ? node.key : null;
        problems.push(`${at(key)}: a checkout without persist-credentials: false`);
      }
    },
  });
  problems.push(
    ...idTokenProblems(document, (path) =>
      at(document.getIn(path, true) as Parameters<typeof at>[0]),
    ),
  );
  return problems;
}

describe("the workflows under .github/workflows", () => {
  it("finds the release workflow", () => {
    expect(files).toContain("release.yml");
  });

  it.each(files)(
    "%s pins its actions, keeps tokens out of .git/config and npm, and sets permissions",
    (file) => {
      expect(problemsOf(readFileSync(path.join(folder, file), "utf8"))).toEqual([]);
    },
  );
});

describe("the workflow rules", () => {
  const SHA = "3d3c42e5aac5ba805825da76410c181273ba90b1";
  /** A workflow with top-level permissions and one job of these steps. */
  const workflow = (steps: string, top = "permissions: {}\n") =>
    `on: push\n${top}jobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n${steps}`;
  const checkout = `      - uses: actions/checkout@${SHA} # v7.0.1\n        with:\n          persist-credentials: false\n`;

  it("accepts pinned actions, a local action, an image by digest and a careful checkout", () => {
    const steps =
      checkout +
      `      - uses: ./.github/actions/setup\n` +
      `      - uses: docker://node@sha256:${"a".repeat(64)}\n` +
      `      - run: npm ci --ignore-scripts\n`;
    expect(problemsOf(workflow(steps))).toEqual([]);
  });

  it.each([
    ["an action by tag", `      - uses: actions/setup-node@v4\n`, /not pinned to a full commit/],
    ["an action by branch", `      - uses: actions/setup-node@main\n`, /not pinned/],
    ["an abbreviated SHA", `      - uses: actions/setup-node@3d3c42e # v7\n`, /not pinned/],
    ["a pin with no version comment", `      - uses: actions/setup-node@${SHA}\n`, /no "# vX.Y.Z"/],
    ["an image by tag", `      - uses: docker://node:24\n`, /not by digest/],
    [
      "a checkout that leaves the token in .git/config",
      `      - uses: actions/checkout@${SHA} # v7.0.1\n`,
      /line 10: a checkout without persist-credentials: false/,
    ],
    [
      "a publish with NODE_AUTH_TOKEN",
      `      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: \${{ secrets.GITHUB_TOKEN }}\n`,
      /sets NODE_AUTH_TOKEN/,
    ],
    [
      "an npm token secret under any variable",
      `      - run: npm publish\n        env:\n          TOKEN: \${{ secrets.NPM_PUBLISH_TOKEN }}\n`,
      /reads secrets\.NPM_PUBLISH_TOKEN/,
    ],
    [
      "an .npmrc written with a token",
      `      - run: echo "//registry.npmjs.org/:_authToken=$T" > ~/.npmrc\n`,
      /writes an npm _authToken/,
    ],
  ])("refuses %s", (_, steps, problem) => {
    const problems = problemsOf(workflow(checkout + steps));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });

  it("refuses top-level write-all", () => {
    // Without a checkout: write-all holds id-token: write, which refuses one too.
    expect(problemsOf(workflow(`      - run: echo hello\n`, "permissions: write-all\n"))).toEqual([
      "top-level permissions: write-all",
    ]);
  });

  it("refuses a workflow without top-level permissions", () => {
    expect(problemsOf(workflow(checkout, ""))).toEqual([
      "no top-level permissions (write `permissions: {}`, then grant each job its own)",
    ]);
  });
});

describe("a job that holds id-token: write", () => {
  const SHA = "3d3c42e5aac5ba805825da76410c181273ba90b1";
  /** A workflow with one job of these steps, which may ask for an OIDC token. */
  const workflow = (steps: string, permissions = "      id-token: write\n") =>
    `on: push\npermissions: {}\njobs:\n  publish:\n    runs-on: ubuntu-24.04\n` +
    `    permissions:\n${permissions}    steps:\n${steps}`;
  const download =
    `      - uses: actions/download-artifact@${SHA} # v8.0.1\n` +
    `        with:\n          name: tarballs\n`;

  it("may publish tarballs it downloaded, with npm and nothing of the repository", () => {
    const steps =
      download +
      `      - run: |\n` +
      `          id=$(tar -xzOf a.tgz package/package.json | node -p 'JSON.parse(1)')\n` +
      `          npm view "$id" version\n` +
      `          npm publish ./a.tgz --provenance --access public --ignore-scripts\n`;
    expect(problemsOf(workflow(steps))).toEqual([]);
  });

  it.each([
    [
      "a checkout",
      `      - uses: actions/checkout@${SHA} # v7.0.1\n        with:\n          persist-credentials: false\n`,
      /line 12: job publish holds id-token: write and checks out the repository/,
    ],
    [
      "an action of the repository",
      `      - uses: ./.github/actions/publish\n`,
      /runs \.\/\.github/,
    ],
    ["the build", `      - run: npm run build\n`, /runs a package's script or code: npm run build/],
    ["npm test", `      - run: npm test\n`, /runs a package's script or code: npm test/],
    [
      "a script of the repository",
      `      - run: node scripts/publish.mjs\n`,
      /runs a file with node/,
    ],
    ["npx", `      - run: npx changeset publish\n`, /runs a package's code/],
    [
      "an install that runs install scripts",
      `      - run: npm ci --no-audit\n`,
      /add --ignore-scripts/,
    ],
    [
      "a publish that runs the package's lifecycle scripts",
      `      - run: npm publish --provenance --access public\n`,
      /add --ignore-scripts/,
    ],
    [
      "the build after an install, on one line",
      `      - run: npm ci --ignore-scripts && npm run build\n`,
      /runs a package's script or code: npm run build/,
    ],
  ])("refuses %s", (_, steps, problem) => {
    const problems = problemsOf(workflow(download + steps));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });

  it("is any job under permissions: write-all, its own or the workflow's", () => {
    const steps = `      - run: npm run build\n`;
    expect(problemsOf(workflow(steps, "      contents: read\n"))).toEqual([]);
    expect(problemsOf(workflow(steps, "      id-token: none\n"))).toEqual([]);
    const inherited = `on: push\npermissions: write-all\njobs:\n  a:\n    steps:\n${steps}`;
    expect(problemsOf(inherited)).toContainEqual(expect.stringMatching(/job a holds id-token/));
  });
});

describe("the release workflow", () => {
  const release = parse(readFileSync(path.join(folder, "release.yml"), "utf8")) as Workflow;
  const jobs = Object.entries(release.jobs ?? {});
  const runs = (job: Job) => (job.steps ?? []).map((step) => step.run ?? "").join("\n");
  const needs = (job: Job) => [job.needs ?? []].flat();
  const artifact = (job: Job, action: string) =>
    job.steps?.find((step) => step.uses?.startsWith(`actions/${action}-artifact@`))?.with?.name;

  it("gives the OIDC token to the publish job alone", () => {
    const holders = jobs.filter(([, job]) => holdsIdToken(release, job)).map(([name]) => name);
    expect(holders).toEqual(["publish"]);
  });

  it("builds only in jobs without the token", () => {
    const building = jobs.filter(([, job]) => /\bnpm (run build|test)\b/.test(runs(job)));
    expect(building.map(([name]) => name).sort()).toEqual(["pack", "test"]);
    for (const [, job] of building) expect(holdsIdToken(release, job)).toBe(false);
  });

  it("publishes the tarballs the pack job built, after the tests passed", () => {
    const pack = release.jobs?.pack as Job;
    const publish = release.jobs?.publish as Job;
    expect(runs(pack)).toMatch(/npm run build\n[^]*node scripts\/publish\.mjs --pack tarballs/);
    expect(artifact(pack, "upload")).toBe("tarballs");
    expect(artifact(publish, "download")).toBe("tarballs");
    expect(needs(publish)).toEqual(expect.arrayContaining(["pack", "test"]));
    expect(runs(publish)).toMatch(/npm publish "\.\/\$tarball" --provenance --access public/);
  });

  it("tests with the whole history, which the migration guard reads", () => {
    const checkout = release.jobs?.test?.steps?.find((step) =>
      step.uses?.startsWith("actions/checkout@"),
    );
    expect(checkout?.with?.["fetch-depth"]).toBe(0);
  });
});
