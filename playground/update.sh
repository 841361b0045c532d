#!/bin/sh
# update.sh refreshes the vendored GraphiQL playground assets in assets/ from the exact
# versions pinned in package.json and package-lock.json. Run it after changing a version
# (edit package.json, then `npm install --package-lock-only --ignore-scripts`), and commit
# the result: a fresh clone builds with Go alone, and the server loads nothing from a CDN.
#
# Usage: playground/update.sh   (from anywhere; needs node and npm)
set -eu
cd "$(dirname "$0")"

npm ci --ignore-scripts --no-audit --no-fund

mkdir -p assets
rm -f assets/*.js assets/*.css assets/*.txt

# copy SRC DST: the file without its sourceMappingURL comment, whose .map we do not serve.
copy() {
	sed -e 's|^//# sourceMappingURL=.*$||' -e 's|/\*# sourceMappingURL=[^*]*\*/||' "$1" >"assets/$2"
}
copy node_modules/graphiql/graphiql.min.js graphiql.min.js
copy node_modules/graphiql/graphiql.min.css graphiql.min.css
copy node_modules/react/umd/react.production.min.js react.production.min.js
copy node_modules/react-dom/umd/react-dom.production.min.js react-dom.production.min.js

# The MIT licenses of what we redistribute.
for p in graphiql react react-dom; do
	cp "node_modules/$p/LICENSE" "assets/$p.LICENSE.txt"
done

# Record what was copied, so a review sees version changes in one small diff.
node -e '
const v = p => require("./node_modules/" + p + "/package.json").version;
console.log(["graphiql", "react", "react-dom"].map(p => p + "@" + v(p)).join("\n"));
' >assets/VERSIONS.txt

ls -l assets
