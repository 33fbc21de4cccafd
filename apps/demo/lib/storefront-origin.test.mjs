import { describe, expect, it } from "vitest";
import { storefrontOrigin } from "./storefront-origin.mjs";

describe("--storefront-origin", () => {
  it("is the origin a browser sends, whatever the spelling", () => {
    expect(storefrontOrigin("http://localhost:8000")).toBe("http://localhost:8000");
    expect(storefrontOrigin("http://LOCALHOST:8000/")).toBe("http://localhost:8000");
    expect(storefrontOrigin("https://loja.example.com.br:443")).toBe("https://loja.example.com.br");
  });

  it("refuses what no browser sends as an origin, saying what to write", () => {
    expect(() => storefrontOrigin("localhost:8000")).toThrow(/http:\/\/ or https:\/\//);
    expect(() => storefrontOrigin("8000")).toThrow(/such as http:\/\/localhost:8000/);
    expect(() => storefrontOrigin("http://localhost:8000/br/checkout")).toThrow(
      "is an origin, with no path: http://localhost:8000",
    );
  });
});
