import fc from "fast-check";

/** Characters that break naive code: NUL, lone surrogates, BOM, RTL override, combining marks. */
const ODD_CHARS = [
  "\u0000",
  "\ud800",
  "\udfff",
  "\ufeff",
  "\u202e",
  "\u2028",
  "\u0301",
  "é",
  "中文",
  "𝄞",
  "🙂",
  "\\",
  '"',
  "%",
  "\r\n",
];

/** Strings of odd Unicode, up to a few dozen code units. */
export const oddUnicode = fc
  .array(fc.constantFrom(...ODD_CHARS), { minLength: 1, maxLength: 24 })
  .map((parts) => parts.join(""));

/** A long string (1 KiB to 60 KiB): big enough to hurt, small enough to stay under the body cap. */
export const hugeString = fc
  .tuple(fc.constantFrom("a", "é", "𝄞", "\u0000", "9"), fc.integer({ min: 1024, max: 60_000 }))
  .map(([char, length]) => char.repeat(Math.ceil(length / char.length)));

/** Names that reach into prototypes when code copies keys without care. */
export const pollutionKeys = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
);

/** Any JSON value of the wrong type for a field that expects something specific. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.string(), weight: 3 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.double(), weight: 2 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.array(fc.string(), { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.object({ maxDepth: 2, maxKeys: 4 }), weight: 1 },
  { arbitrary: oddUnicode, weight: 2 },
  { arbitrary: hugeString, weight: 1 },
  {
    arbitrary: fc.constantFrom(-1, 0, 1e308, -0, 4990.5, Number.MAX_SAFE_INTEGER + 2, 2 ** 31),
    weight: 2,
  },
);

/** A JSON text whose keys try prototype pollution, at the top level and inside `data`. */
export const pollutionBody = fc
  .tuple(pollutionKeys, fc.constantFrom("charge.paid", "charge.expired", "transfer.completed"))
  .map(
    ([key, event]) =>
      `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},` +
      `"event":"${event}","data":{"${key}":{"polluted":"yes"},"__proto__":{"status":"paid","polluted":"yes"},` +
      `"uuid":"00000000-0000-4000-8000-000000000000","amount":100,"status":"${event.endsWith("paid") ? "paid" : event.split(".")[1]}"}}`,
  );

/** Content types a hostile or broken client might send. */
export const contentType = fc.constantFrom<string | undefined>(
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=zz",
  "application/xml",
  "application/octet-stream",
  "*/*; q=garbage",
  undefined,
);

/** Malformed JSON: random text, and valid JSON cut short or with trailing garbage. */
export const malformedJson = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.json().map((text) => text.slice(0, Math.max(0, text.length - 1)) + "{"),
  fc.json().map((text) => `${text},,`),
  fc.constantFrom("", "{", "}", "[", "null", "undefined", "NaN", '{"event":', "\u0000", "{'a':1}"),
);

/** What a query string may carry to confuse qs-style parsers. */
export const hostileQuery = fc.oneof(
  fc.constant(""),
  fc.constant("?__proto__[polluted]=yes"),
  fc.constant("?constructor[prototype][polluted]=yes"),
  fc.constant("?a[b][c][d][e][f][g][h][i][j][k]=1"),
  fc.string({ maxLength: 40 }).map((s) => `?${encodeURIComponent(s)}=${encodeURIComponent(s)}`),
);
