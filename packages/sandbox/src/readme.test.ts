import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./index.js";

// The README's curl walk-through must work verbatim; here it runs against an ephemeral port
// instead of 4010 (the only change), so a stale README fails the build.
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const walkThrough =
  [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string)[1] ?? "";

describe("README curl walk-through, variant A", () => {
  let sandbox: Sandbox;
  let output = "";
  beforeAll(async () => {
    sandbox = await startSandbox({ variant: "a" });
    const script = walkThrough.replaceAll("127.0.0.1:4010", `127.0.0.1:${sandbox.port}`);
    // Asynchronous on purpose: the sandbox answers curl from this same process.
    const result = await promisify(execFile)("sh", ["-c", script], { encoding: "utf8" });
    output = result.stdout + result.stderr;
  });
  afterAll(() => sandbox.close());

  it("uses port 4010, the CLI's default", () => {
    expect(walkThrough).toContain("API=http://127.0.0.1:4010/v1");
  });

  it("pays the charge it created", () => {
    expect(output).toContain('"status":"paid","paid":true');
  });

  it("shows the net amount pending, then available after the clock moves a day", () => {
    expect(output).toContain('"pending":[{"amount":1970,"currency":"brl"}]');
    expect(output).toContain('"available":[{"amount":1970,"currency":"brl"}]');
  });

  it("creates a boleto and refuses a bad CPF", () => {
    expect(output).toMatch(/"payment_method":"boleto".*"barcode":"\d{44}"/);
    expect(output).toContain('"code":"invalid_document"');
  });

  it("lists transactions, creates a withdrawal and shows the auth errors", () => {
    expect(output).toContain('"object":"list"');
    expect(output).toContain('"status":"processing"');
    expect(output).toContain('"code":"missing_authorization"');
    expect(output).toContain('"code":"invalid_api_key"');
  });
});
