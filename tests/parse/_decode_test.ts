import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { chooseEncoding, decodeChunks, undecodableReason } from "../../src/parse/_decode.ts";

const ascii = (s: string) => new TextEncoder().encode(s);

Deno.test("chooseEncoding() trusts a byte order mark first", () => {
  equal(chooseEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c])).encoding, "utf-8");
  equal(chooseEncoding(new Uint8Array([0xff, 0xfe, 0x3c, 0])).encoding, "utf-16le");
  equal(chooseEncoding(new Uint8Array([0xfe, 0xff, 0, 0x3c])).encoding, "utf-16be");
  const declaredLatin1 = new Uint8Array([
    0xef,
    0xbb,
    0xbf,
    ...ascii('<?xml encoding="ISO-8859-1"?>'),
  ]);
  deepStrictEqual(chooseEncoding(declaredLatin1), { encoding: "utf-8", source: "bom" });
});

Deno.test("chooseEncoding() sniffs UTF-16 without a BOM from the NUL next to '<'", () => {
  equal(chooseEncoding(new Uint8Array([0x3c, 0, 0x3f, 0])).encoding, "utf-16le");
  equal(chooseEncoding(new Uint8Array([0, 0x3c, 0, 0x3f])).encoding, "utf-16be");
});

Deno.test("chooseEncoding() honours the XML declaration over the Content-Type", () => {
  const doc = ascii(`<?xml version="1.0" encoding='ISO-8859-1' ?><urlset/>`);
  deepStrictEqual(chooseEncoding(doc, "text/xml; charset=utf-8"), {
    encoding: "windows-1252",
    source: "declaration",
  });
  equal(
    chooseEncoding(ascii(`<?xml version="1.0" encoding="windows-1250"?>`)).encoding,
    "windows-1250",
  );
});

Deno.test("chooseEncoding() uses the Content-Type charset when nothing in the document says", () => {
  deepStrictEqual(chooseEncoding(ascii("<urlset/>"), 'text/xml; Charset="iso-8859-2"'), {
    encoding: "iso-8859-2",
    source: "content-type",
  });
  deepStrictEqual(chooseEncoding(ascii("https://a/\n"), "text/plain"), {
    encoding: "utf-8",
    source: "default",
  });
});

Deno.test("chooseEncoding() ignores unknown labels and UTF-16 labels on ASCII bytes", () => {
  equal(chooseEncoding(ascii(`<?xml version="1.0" encoding="klingon"?>`)).encoding, "utf-8");
  equal(chooseEncoding(ascii(`<?xml version="1.0" encoding="UTF-16"?>`)).encoding, "utf-8");
  equal(chooseEncoding(ascii("<urlset/>"), "text/xml; charset=utf-16").encoding, "utf-8");
});

Deno.test("decodeChunks() splits by bytes yet never splits a character", () => {
  const text = "ąb€😀".repeat(50);
  const bytes = new TextEncoder().encode(text);
  for (const size of [1, 2, 3, 7, 64]) {
    const chunks = [...decodeChunks(bytes, "utf-8", size, size)];
    equal(chunks.join(""), text, `chunk size ${size}`);
  }
});

Deno.test("decodeChunks() replaces invalid UTF-8 and keeps NUL bytes", () => {
  const bytes = new Uint8Array([0x61, 0xff, 0x62, 0, 0xc3]);
  equal([...decodeChunks(bytes, "utf-8", 2, 2)].join(""), "a\ufffdb\u0000\ufffd");
});

Deno.test("decodeChunks() drops the BOM and decodes UTF-16 split at odd bytes", () => {
  const le = new Uint8Array([0xff, 0xfe, 0x3c, 0, 0x61, 0, 0x3e, 0]);
  equal([...decodeChunks(le, "utf-16le", 3, 1)].join(""), "<a>");
  const be = new Uint8Array([0xfe, 0xff, 0, 0x3c, 0, 0x61, 0, 0x3e]);
  equal([...decodeChunks(be, "utf-16be", 3, 3)].join(""), "<a>");
});

Deno.test("decodeChunks() makes the first piece small and the others large", () => {
  const chunks = [...decodeChunks(new Uint8Array(100).fill(0x61), "utf-8", 40, 10)];
  deepStrictEqual(chunks.map((c) => c.length), [10, 40, 40, 10]);
});

Deno.test("undecodableReason() names UTF-32 by its BOM or its 4-byte '<', and nothing else", () => {
  const utf32 = (order: "le" | "be", text: string, bom: boolean): Uint8Array => {
    const units = [...(bom ? "\uFEFF" : ""), ...text].map((c) => c.codePointAt(0)!);
    const out = new Uint8Array(units.length * 4);
    const view = new DataView(out.buffer);
    units.forEach((u, i) => view.setUint32(i * 4, u, order === "le"));
    return out;
  };
  const reason = (name: string) =>
    `Not a sitemap: the document is encoded as ${name}, which cannot be decoded ` +
    "(the Encoding Standard has no UTF-32); serve it as UTF-8";
  equal(
    undecodableReason(utf32("le", "<urlset/>", true)),
    reason("UTF-32LE (byte order mark FF FE 00 00)"),
  );
  equal(
    undecodableReason(utf32("be", "<urlset/>", true)),
    reason("UTF-32BE (byte order mark 00 00 FE FF)"),
  );
  equal(undecodableReason(utf32("le", "<urlset/>", false)), reason("UTF-32LE (3C 00 00 00)"));
  equal(undecodableReason(utf32("be", "<urlset/>", false)), reason("UTF-32BE (00 00 00 3C)"));
  // UTF-16 with a BOM, UTF-8 and short input are decodable.
  equal(undecodableReason(new Uint8Array([0xff, 0xfe, 0x3c, 0, 0x61, 0])), null);
  equal(undecodableReason(new TextEncoder().encode("\uFEFF<urlset/>")), null);
  equal(undecodableReason(new Uint8Array([0xff, 0xfe, 0])), null);
});
