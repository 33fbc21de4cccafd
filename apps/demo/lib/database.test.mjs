import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ensureDatabase, redactUrl, resolveDatabase } from "./database.mjs";

// Real PostgreSQL at localhost:5432 (trust auth, user postgres), as every suite here uses.
const server = "postgres://postgres@localhost:5432";
const name = `pix_demo_test_${process.pid}`;

async function databaseExists(database) {
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    const result = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)}`);
  await client.end();
});

describe("ensureDatabase", () => {
  it("creates the database named in the URL when it is missing", async () => {
    expect(await databaseExists(name)).toBe(false);
    await ensureDatabase(`${server}/${name}`);
    expect(await databaseExists(name)).toBe(true);
  });

  it("leaves an existing database alone", async () => {
    await ensureDatabase(`${server}/${name}`);
    await expect(ensureDatabase(`${server}/${name}`)).resolves.toBeUndefined();
  });

  it("refuses a URL that names no database", async () => {
    await expect(ensureDatabase(`${server}/`)).rejects.toThrow(/names no database/);
  });
});

describe("resolveDatabase", () => {
  it("uses DATABASE_URL as given and leaves it running on stop", async () => {
    const database = await resolveDatabase({
      databaseUrl: `${server}/${name}`,
      databaseName: "ignored",
      embeddedPort: 1,
      embeddedDataDir: "/nonexistent",
      logDir: "/nonexistent",
      log: () => {},
    });
    expect(database).toMatchObject({ url: `${server}/${name}`, source: "DATABASE_URL" });
    await database.stop();
    expect(await databaseExists(name)).toBe(true);
  });
});

describe("redactUrl", () => {
  it("masks the password of a connection string", () => {
    expect(redactUrl("postgres://app:s3cret@db:5432/shop")).toBe("postgres://app:***@db:5432/shop");
  });
});
