import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { readerForRoot, sniffFormat } from "../../src/parse/_detect.ts";
import { parse } from "./_unpack.ts";

Deno.test("sniffFormat() decides on the first character that is not whitespace", () => {
  equal(sniffFormat("  \r\n\t<urlset>"), "xml");
  equal(sniffFormat("\ufeff<?xml"), "xml");
  equal(sniffFormat(" https://a.example/"), "text");
  equal(sniffFormat("{}"), "text");
  equal(sniffFormat(" \n "), "undecided");
  equal(sniffFormat(""), "undecided");
});

Deno.test("readerForRoot() knows the five roots and nothing else", () => {
  for (const local of ["urlset", "sitemapindex", "rss", "feed"]) {
    equal(readerForRoot("", local, null, NaN) !== null, true, local);
  }
  equal(
    readerForRoot("http://www.w3.org/1999/02/22-rdf-syntax-ns#", "RDF", null, NaN) !== null,
    true,
  );
  equal(readerForRoot("urn:other", "RDF", null, NaN), null);
  equal(readerForRoot("http://www.w3.org/1999/xhtml", "html", null, NaN), null);
  equal(readerForRoot("", "svg", null, NaN), null);
});

Deno.test("parseSitemap() says which root it found when it is not a sitemap", () => {
  deepStrictEqual(parse("<html><head><title>Sitemap</title></head><body></body></html>"), {
    kind: "invalid",
    reason:
      "Not a sitemap: the document's root element is <html> (expected urlset, sitemapindex, rss, rdf:RDF or feed)",
  });
  deepStrictEqual(parse(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>`), {
    kind: "invalid",
    reason:
      "Not a sitemap: the document's root element is <svg> (expected urlset, sitemapindex, rss, rdf:RDF or feed)",
  });
});

Deno.test("parseSitemap() names an HTML page that starts with its doctype", () => {
  const page =
    "\n<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>404</title></head></html>";
  deepStrictEqual(parse(page), {
    kind: "invalid",
    reason: "Not a sitemap: the document is an HTML page (<!DOCTYPE html>)",
  });
  const commented = "<!-- served by nginx --><!doctype HTML><html></html>";
  deepStrictEqual(parse(commented), {
    kind: "invalid",
    reason: "Not a sitemap: the document is an HTML page (<!DOCTYPE html>)",
  });
});

Deno.test("parseSitemap() calls XML with no element at all invalid", () => {
  deepStrictEqual(parse(`<?xml version="1.0"?><!-- nothing -->`), {
    kind: "invalid",
    reason:
      "Not a sitemap: the document has no root element (expected urlset, sitemapindex, rss, rdf:RDF or feed)",
  });
});
