import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { saoPauloDay, startOfSaoPauloDay, nextDay } from "@pix-checkout/client/books";
import { barcodeDueDay, boletoDueDate } from "./boleto-due-date";

describe("a boleto's due date: the barcode's against the service's", () => {
  let sandbox: Sandbox;
  let boleto: { line: string; expires_at: string };
  let createdAt: Date;

  beforeAll(async () => {
    const { startSandbox } = await import("@pix-checkout/sandbox");
    sandbox = await startSandbox({ variant: "a" });
    // Tomorrow at 22:04 in São Paulo: 01:04 of the day after in UTC, so the two calendars
    // name different days for the creation and for the 3-day due date alike.
    const tomorrow = nextDay(saoPauloDay(new Date(sandbox.clock.now())));
    createdAt = new Date(startOfSaoPauloDay(tomorrow).getTime() + (22 * 60 + 4) * 60_000);
    sandbox.clock.set(createdAt.getTime());
    // Through the client, as the plugin creates charges: it hands over the digitable line.
    const { PixClient } = await import("@pix-checkout/client");
    const client = new PixClient({
      apiKey: sandbox.defaultKey,
      baseUrl: sandbox.baseUrl,
      variant: "a",
    });
    const charge = await client.charges.create({
      method: "boleto",
      amountCents: 4990,
      description: "Pedido 1001",
      customer: {
        name: "Ana Souza",
        email: "ana@example.com",
        document: "123.456.789-09",
        phone: "(11) 98765-4321",
      },
      billingAddress: {
        zip: "01310-100",
        state: "SP",
        city: "São Paulo",
        street: "Avenida Paulista",
        neighborhood: "Bela Vista",
        number: "1000",
      },
    });
    boleto = { line: charge.boleto!.digitableLine, expires_at: charge.expiresAt };
  });

  afterAll(() => sandbox?.close());

  it("created at 22:04 in São Paulo, the barcode carries the São Paulo due day", () => {
    expect(createdAt.toISOString().slice(11, 16)).toBe("01:04");
    const expiresAt = new Date(boleto.expires_at);
    // The UTC calendar is a day ahead: the case where a UTC factor showed a second date.
    expect(expiresAt.toISOString().slice(0, 10)).not.toBe(saoPauloDay(expiresAt));
    expect(barcodeDueDay(boleto.line, expiresAt)).toBe(saoPauloDay(expiresAt));
    expect(boletoDueDate(boleto.line, expiresAt)).toEqual({ shown: saoPauloDay(expiresAt) });
  });

  it("shows the barcode's date and reports the disagreement when the service's day differs", () => {
    const expiresAt = new Date(boleto.expires_at);
    // A service whose factor counted the UTC day would say one day later than it encodes:
    // as seen from the plugin, expires_at and the barcode then name different days.
    const serviceSays = new Date(expiresAt.getTime() + 86_400_000);
    expect(boletoDueDate(boleto.line, serviceSays)).toEqual({
      shown: saoPauloDay(expiresAt),
      mismatch: { service_date: saoPauloDay(serviceSays), barcode_date: saoPauloDay(expiresAt) },
    });
  });

  it("keeps the service's day for a line it cannot read", () => {
    const expiresAt = new Date(boleto.expires_at);
    expect(barcodeDueDay("1234", expiresAt)).toBeNull();
    expect(boletoDueDate("1234", expiresAt)).toEqual({ shown: saoPauloDay(expiresAt) });
  });
});
