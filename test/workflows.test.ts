// The release workflow publishes with no stored token (RELEASING.md). Every workflow under
// .github/workflows keeps to the rules that make that safe: an action is pinned to a commit,
// since a tag can be moved to code nobody reviewed; a checkout leaves no token in .git/config
// for the steps after it; no npm token comes from a secret, since npm's trusted publishing
// needs none; and the file sets its top-level permissions, so a job gets only what it names.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LineCounter, isMap, isScalar, parseDocument, visit } from "yaml";

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
    expect(problemsOf(workflow(checkout, "permissions: write-all\n"))).toEqual([
      "top-level permissions: write-all",
    ]);
  });

  it("refuses a workflow without top-level permissions", () => {
    expect(problemsOf(workflow(checkout, ""))).toEqual([
      "no top-level permissions (write `permissions: {}`, then grant each job its own)",
    ]);
  });
});
