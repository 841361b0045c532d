// Prints, for each operation of the app, the bytes of its request body sent as a trusted
// document's id (what the app sends) and as its query text (what a client without trusted
// documents sends: the manifest's text, already minified by Codegen), with the same
// operationName and no variables (they weigh the same either way). docs/benchmarks.md.
//
//   node web/e2e/request-bytes.mjs
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../src/gql/persisted-documents.json", import.meta.url), "utf8"));
const rows = [];
for (const [id, text] of Object.entries(manifest)) {
  const name = /(?:^|\s)(?:query|mutation|subscription) (\w+)/.exec(text)?.[1] ?? "?";
  const byId = JSON.stringify({ documentId: id, operationName: name }).length;
  const byQuery = JSON.stringify({ query: text, operationName: name }).length;
  rows.push({ name, byId, byQuery });
}
rows.sort((a, b) => a.name.localeCompare(b.name));
console.log("| operation | documentId | query | ratio |");
console.log("| --- | ---: | ---: | ---: |");
let id = 0;
let q = 0;
for (const r of rows) {
  id += r.byId;
  q += r.byQuery;
  console.log(`| ${r.name} | ${r.byId} B | ${r.byQuery} B | ${(r.byQuery / r.byId).toFixed(1)}× |`);
}
console.log(`| all ${rows.length} | ${id} B | ${q} B | ${(q / id).toFixed(1)}× |`);
