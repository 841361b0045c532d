// Runs the graphql-http server audits (the GraphQL over HTTP spec's MUST and SHOULD rules)
// against the GraphQL endpoint given as the first argument. Prints one line per audit that
// is not ok and a summary; exits 1 when any audit fails. With --strict, a warning (a SHOULD
// not met) fails too.
import { auditServer } from 'graphql-http';

const url = process.argv[2];
const strict = process.argv.includes('--strict');
if (!url) {
  console.error('usage: node audit.mjs URL [--strict]');
  process.exit(2);
}

const results = await auditServer({ url });
let ok = 0, warn = 0, error = 0;
for (const r of results) {
  if (r.status === 'ok') {
    ok++;
    continue;
  }
  if (r.status === 'warn') warn++;
  else error++;
  let body = '';
  if (r.response) {
    try {
      body = ` (got ${r.response.status} ${r.response.headers.get('content-type') ?? ''})`;
    } catch {}
  }
  console.log(`${r.status.toUpperCase()} ${r.id} ${r.name}: ${r.reason}${body}`);
}
console.log(`graphql-http audit: ${ok} ok, ${warn} warnings, ${error} errors of ${results.length}`);
process.exit(error > 0 || (strict && warn > 0) ? 1 : 0);
