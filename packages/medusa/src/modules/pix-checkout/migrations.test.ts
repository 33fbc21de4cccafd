import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/*
 * A committed migration never changes. A database that ran a migration never runs it again, so
 * an edited migration reaches fresh databases only and the two schemas drift apart (builds
 * before 0.1.0 had one renamed and one edited after databases ran them). Two guards hold it:
 *
 * - migrations/hashes.json holds the sha256 of every migration as committed; these tests fail
 *   when one changed or disappeared, and when a new one has no hash yet. Line endings are read
 *   as "\n", so a Windows checkout hashes the same. They need no git, but a commit that renames
 *   or edits a migration and rewrites its line in hashes.json gets past them.
 * - git's history: no commit since the hash test landed changed or removed a migration one of
 *   its parents had, and the working tree has every migration of HEAD as HEAD has it. A rename
 *   is a removal: Medusa records a module migration in mikro_orm_migrations by its file name
 *   (the class is named after it too), so a database that ran the old name runs the new one
 *   again.
 */

const dir = path.join(__dirname, "migrations");
const HASHES = "migrations/hashes.json";
const isMigration = (name: string) => /^Migration\d+\.ts$/.test(name);

const hashes = JSON.parse(readFileSync(path.join(dir, "hashes.json"), "utf8")) as Record<
  string,
  string
>;
const files = readdirSync(dir).filter(isMigration).sort();

function sha256Of(file: string): string {
  const text = readFileSync(path.join(dir, file), "utf8").replace(/\r\n/g, "\n");
  return createHash("sha256").update(text).digest("hex");
}

describe("the plugin's migrations", () => {
  it.each(Object.keys(hashes))("%s is as it was committed", (file) => {
    if (!files.includes(file)) {
      throw new Error(
        `${file} is gone, but ${HASHES} says it was committed: databases ran it. A committed ` +
          `migration never changes or disappears: put it back as it was, and to undo what it ` +
          `did, add a new migration instead.`,
      );
    }
    const found = sha256Of(file);
    if (found !== hashes[file]) {
      throw new Error(
        `${file} changed after it was committed (sha256 ${found}, ${HASHES} has ` +
          `${hashes[file]}). A database that ran it never runs it again, so the change would ` +
          `reach fresh databases only: put it back as it was and add a new migration instead.`,
      );
    }
  });

  it("has the hash of every migration", () => {
    const missing = files.filter((file) => !(file in hashes));
    if (missing.length > 0) {
      throw new Error(
        `Not in ${HASHES}: ${missing.join(", ")}. Once a new migration is final, add its hash ` +
          `there, and from then on never change the file:\n` +
          missing.map((file) => `  "${file}": "${sha256Of(file)}"`).join(",\n"),
      );
    }
  });
});

/**
 * Where the history check starts: the merge that brought hashes.json and its test to main.
 * Before it, the migrations of the builds before 0.1.0 were folded into one baseline twice on
 * purpose (CHANGELOG.md, 0.1.0, resets a database those builds left halfway), and no release had
 * any of them.
 */
const BASELINE = "98ec10e25293274a4c75ec22e0374d511c1ce524";

/**
 * Changes since BASELINE that broke the rule before this check existed, each with why it stays.
 * Both are the buyer's-document migration's, on the branch that brought it: committed as
 * Migration20261130410000 (with its hash), re-wrapped by the formatter in 66e0951, then renamed
 * to Migration20261201100000 in the merge 106bff1 so that it sorts after the MED's migration
 * main had taken meanwhile (its class renamed with it, hashes.json rewritten in the same merge).
 * It stays renamed: main never had the old name, no release had either, and its SQL is
 * `add column if not exists`, so a development database that ran the old name runs the new one
 * again harmlessly. Renaming it back would make every database that ran
 * Migration20261201100000 (main's since that merge) run it a second time under the old name,
 * and change a committed migration once more.
 */
const KNOWN: readonly { commit: string; file: string }[] = [
  { commit: "66e09519d95354eed63cbafcaf82f3b409a79198", file: "Migration20261130410000.ts" },
  { commit: "106bff1558cbe30f8388833ceaf8b35b4bd5fee0", file: "Migration20261130410000.ts" },
];

/** One change git's history or the working tree holds against the rule. */
interface Violation {
  /** The commit that made it, or "" for the working tree. */
  commit: string;
  file: string;
  what: string;
}

type Git = (args: string[]) => string;

/**
 * Runs git in the migrations folder, or says why the history cannot be checked here: a shallow
 * clone, no git, or no repository (a source tarball). Anything else that fails is thrown.
 */
function openHistory(): { git: Git } | { skip: string } {
  const git: Git = (args) => {
    const run = spawnSync("git", args, { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
    if (run.error) throw run.error;
    if (run.status !== 0) {
      throw new Error(`git ${args.join(" ")} failed (${run.status}): ${run.stderr.trim()}`);
    }
    return run.stdout;
  };
  const probe = spawnSync("git", ["rev-parse", "--is-shallow-repository"], {
    cwd: dir,
    encoding: "utf8",
  });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    return { skip: "git is not installed, so the history of the migrations cannot be read" };
  }
  if (probe.status !== 0 && /not a git repository/i.test(probe.stderr)) {
    return { skip: "not a git checkout (a source tarball?), so there is no history to read" };
  }
  if (probe.status !== 0) {
    throw new Error(`git cannot read this checkout: ${probe.stderr.trim()}`);
  }
  if (probe.stdout.trim() === "true") {
    return {
      skip:
        "a shallow clone lacks the history of the migrations; clone with the whole history " +
        "(actions/checkout: fetch-depth: 0) to check it",
    };
  }
  // From here on, a full clone: history that cannot be read is a failure, not a skip.
  try {
    git(["merge-base", "--is-ancestor", BASELINE, "HEAD"]);
  } catch (error) {
    throw new Error(
      `The migration guard starts at ${BASELINE}, which is not in HEAD's history in this full ` +
        `clone: ${(error as Error).message}`,
    );
  }
  return { git };
}

/** One line of a `--raw` diff: a file's blob before and after, and git's status letter. */
interface RawLine {
  before: string;
  after: string;
  status: string;
  file: string;
}

function rawLines(text: string): RawLine[] {
  return text.split("\n").flatMap((line) => {
    const raw = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*\t(.+)$/.exec(line);
    if (!raw) return [];
    const [, before = "", after = "", status = "", file = ""] = raw;
    return [{ before, after, status, file }];
  });
}

/** What a diff line does to a committed migration, if it breaks the rule. */
function breach(line: RawLine, retired: Set<string>): string | undefined {
  if (!isMigration(line.file)) return undefined;
  if (retired.has(line.file)) {
    return line.status === "A"
      ? "reuses the name of a migration the 0.1.0 baseline retired"
      : undefined;
  }
  if (line.status === "D") return "removed (a rename removes the old name)";
  if ((line.status === "M" || line.status === "T") && line.before !== line.after) {
    return "changed";
  }
  return undefined;
}

/**
 * Every commit since BASELINE, against each of its parents, that changed or removed a
 * migration. Each parent, not only the first: a migration a branch committed and a merge then
 * renamed is a change against the branch's side. The names the baseline retired (in the history
 * before it, not in its tree) may still be removed, by a branch older than the baseline merged
 * later, and never come back.
 */
function historyViolations(git: Git): Violation[] {
  const before = git([
    "log",
    "--format=",
    "--name-only",
    "--relative",
    "--full-history",
    BASELINE,
    "--",
    ".",
  ])
    .split("\n")
    .filter(isMigration);
  const atBaseline = new Set(git(["ls-tree", "--name-only", BASELINE, "--", "."]).split("\n"));
  const retired = new Set(before.filter((file) => !atBaseline.has(file)));

  const log = git([
    "log",
    "-m",
    "--full-history",
    "--raw",
    "--no-renames",
    "--no-abbrev",
    "--relative",
    "--format=commit %H",
    `${BASELINE}..HEAD`,
    "--",
    ".",
  ]);
  const found: Violation[] = [];
  for (const chunk of log.split(/^commit /m).slice(1)) {
    const commit = chunk.slice(0, 40);
    for (const line of rawLines(chunk)) {
      const what = breach(line, retired);
      const seen = found.some((v) => v.commit === commit && v.file === line.file);
      if (what && !seen) found.push({ commit, file: line.file, what });
    }
  }
  return found;
}

/** Migrations HEAD has that the working tree (staged or not) changed or removed. */
function workingTreeViolations(git: Git): Violation[] {
  const diff = git(["diff", "HEAD", "--raw", "--no-renames", "--no-abbrev", "--relative", "."]);
  return rawLines(diff).flatMap((line) => {
    const what = breach(line, new Set());
    return what ? [{ commit: "", file: line.file, what }] : [];
  });
}

const ADVICE =
  "A database that ran a migration never runs it again, and Medusa knows it by its file name: " +
  "put the file back as it was, under its name, and add a new migration for the change. If the " +
  "commit is on a branch no one else has, fold the change into the commit that added the " +
  "migration instead (git rebase -i), since no database outside yours ran it.";

/**
 * Skips a test of the history, saying why: as the skip's note (the verbose and JSON reporters)
 * and on stderr, which the default reporter prints too.
 */
function skipWith(ctx: { skip: (note: string) => never }, reason: string): never {
  // eslint-disable-next-line no-console -- a skipped guard must say so where a run is read
  console.warn(`The migration guard did not read git's history: ${reason}.`);
  return ctx.skip(reason);
}

describe("the plugin's migrations in git's history", () => {
  /** A commit as "abc1234 (its subject's start)". */
  const describeCommit = (git: Git, commit: string) => {
    const [hash, subject = ""] = git(["log", "-1", "--format=%h%n%s", commit]).split("\n");
    return `${hash} (${subject.length > 60 ? `${subject.slice(0, 59)}…` : subject})`;
  };

  it("no commit since the hash test changed, renamed or removed a committed migration", (ctx) => {
    const history = openHistory();
    if ("skip" in history) return skipWith(ctx, history.skip);
    const { git } = history;
    const found = historyViolations(git);
    const known = (v: { commit: string; file: string }) =>
      KNOWN.some((k) => k.commit === v.commit && k.file === v.file);
    const fresh = found.filter((v) => !known(v));
    if (fresh.length > 0) {
      throw new Error(
        `A committed migration changed in git's history:\n` +
          fresh
            .map((v) => `  ${v.file}: ${v.what} in ${describeCommit(git, v.commit)}`)
            .join("\n") +
          `\n${ADVICE}`,
      );
    }
    // An entry of KNOWN that matches nothing was mistyped, and would hide nothing it names.
    expect(
      KNOWN.filter((k) => !found.some((v) => v.commit === k.commit && v.file === k.file)),
    ).toEqual([]);
  });

  it("the working tree has every migration of HEAD, unchanged", (ctx) => {
    const history = openHistory();
    if ("skip" in history) return skipWith(ctx, history.skip);
    const fresh = workingTreeViolations(history.git);
    if (fresh.length > 0) {
      throw new Error(
        `A committed migration changed in the working tree (against HEAD):\n` +
          fresh.map((v) => `  ${v.file}: ${v.what}`).join("\n") +
          `\n${ADVICE}`,
      );
    }
  });
});
