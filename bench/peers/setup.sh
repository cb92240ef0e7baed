#!/usr/bin/env bash
# Creates the Python venv the peer retrievers run in (.data/peers-venv) and installs
# bench/peers/requirements.txt into it from PyPI. Idempotent: when the venv exists and was
# built from the same requirements file (a stamp holds its hash), it does nothing.
#
#   bash bench/peers/setup.sh            # PYTHON=python3.12 to use another interpreter
#   PEERS_VENV=/some/dir bash bench/peers/setup.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${PEERS_VENV:-$root/.data/peers-venv}"
req="$here/requirements.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi

python="${PYTHON:-python3}"
echo "peers: creating $venv with $("$python" --version 2>&1)" >&2
rm -f "$stamp"
mkdir -p "$(dirname "$venv")"
[[ -x "$venv/bin/python" ]] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$req" >&2
"$venv/bin/python" -c 'import neo4j, neo4j_graphrag' >&2
echo "$want" > "$stamp"
echo "peers: installed $(grep -E '^(neo4j-graphrag|neo4j)==' "$req" | tr '\n' ' ')into $venv" >&2
