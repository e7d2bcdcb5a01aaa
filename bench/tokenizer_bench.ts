/**
 * `deno bench -A bench/tokenizer_bench.ts`: our tokenizer against saxes and
 * htmlparser2 on the same 50,000-URL urlset (about 9 MB), fed in 1 MiB
 * chunks, each with a handler that counts elements and text length.
 *
 * @module
 */
import { urlsetDocument } from "../tests/parse/_xml_gen.ts";
import { chunksOf, runHtmlparser2, runOurs, runSaxes } from "./tokenizer_throughput.ts";

const chunks = chunksOf(urlsetDocument(50_000));

Deno.bench("ours (XmlTokenizer)", { group: "tokenizer", baseline: true }, () => {
  runOurs(chunks);
});

Deno.bench("saxes (xmlns: true)", { group: "tokenizer" }, () => {
  runSaxes(chunks);
});

Deno.bench("htmlparser2 (xmlMode)", { group: "tokenizer" }, () => {
  runHtmlparser2(chunks);
});
