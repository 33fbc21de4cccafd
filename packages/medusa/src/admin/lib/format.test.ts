import { describe, expect, it } from "vitest";
import { parseReais } from "./format";

describe("parseReais", () => {
  it.each([
    ["55", 5500],
    ["55,5", 5550],
    ["55,50", 5550],
    ["1.234,56", 123456],
    ["R$ 49,90", 4990],
    ["55.50", 5550],
    ["1.234", 123400],
  ])("reads %s as %i cents", (text, cents) => {
    expect(parseReais(text)).toBe(cents);
  });

  it.each(["", "abc", "0", "55,555", "-5", "5,5,5"])("refuses %j", (text) => {
    expect(parseReais(text)).toBeNull();
  });
});
