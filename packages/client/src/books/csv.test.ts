import { describe, expect, it } from "vitest";
import { BOM, csvField, toCsv } from "./csv.js";

describe("the CSV writer", () => {
  it("starts with a UTF-8 BOM, separates with ; and ends every line with CRLF", () => {
    const text = toCsv([
      ["Conciliação", "b"],
      ["c", null],
    ]);
    expect(text).toBe(`${BOM}Conciliação;b\r\nc;\r\n`);
    expect(Buffer.from(text, "utf8").subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it("writes cents with a decimal comma and instants as dd/mm/aaaa in São Paulo", () => {
    expect(csvField(1_234_567)).toBe("12.345,67");
    expect(csvField(-50)).toBe("-0,50");
    // 01:30 UTC on the 21st is still the 20th in São Paulo.
    expect(csvField(new Date("2026-11-21T01:30:00Z"))).toBe("20/11/2026");
  });

  it.each([
    ["Souza; Ana", '"Souza; Ana"'],
    ['a "quoted" name', '"a ""quoted"" name"'],
    ["two\nlines", '"two\nlines"'],
    ["cr\rlf", '"cr\rlf"'],
    ["plain, with comma", "plain, with comma"],
  ])("quotes %j only when it must", (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it("keeps a text that looks like a formula from running in the spreadsheet", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+55 11")).toBe("'+55 11");
    expect(csvField("@ana")).toBe("'@ana");
  });
});
