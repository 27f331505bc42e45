#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# scripts/mcp/package-lock.json, run with the Node 22 installed there) against a live server.
#
# All 32 server scenarios run; the 4 that apply to a server with its own tools must pass
# (server-initialize, ping, tools-list, dns-rebinding-protection); the rest must fail only for
# "not offered here" (scripts/mcp/no_aplican.yml, docs/decisiones.md). The suite cannot send
# headers, so scripts/mcp/cabeceras.mjs adds the demo API key and personal token to its requests
# (client side: the server runs exactly as in production). Then our own Host/Origin checks.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp/servidor.sh"
inicio=$SECONDS

mcp_node_listo
mcp_servidor

resultados="$MCP_TMP/conformidad"
rm -rf "$resultados"
echo "== Conformidad MCP: @modelcontextprotocol/conformance $("$PY" -c '
import json, sys
print(json.load(open(sys.argv[1]))["packages"]["node_modules/@modelcontextprotocol/conformance"]["version"])' "$MCP_DIR/package-lock.json") contra $MCP_URL =="
MCP_CABECERAS="$("$PY" -c '
import json, sys
demo = json.load(open(sys.argv[1]))
print(json.dumps({"X-MCP-Api-Key": demo["api_key"], "X-MCP-User-Token": demo["tokens"]["completo"]}))' "$MCP_DEMO")"
export MCP_CABECERAS

set +e
(cd "$MCP_DIR" && HOME="$MCP_TMP/home" NO_COLOR=1 "$NODE" --import ./cabeceras.mjs \
  node_modules/.bin/conformance server --url "$MCP_URL" --suite all \
  --expected-failures no_aplican.yml -o "$resultados") >"$MCP_TMP/conformidad.log" 2>&1
rc_suite=$?
set -e
unset MCP_CABECERAS

rc=0
"$PY" "$MCP_DIR/revisar.py" conformidad "$resultados" "$MCP_DIR/no_aplican.yml" || rc=1
if [ "$rc_suite" -ne 0 ]; then
  echo "El suite terminó con $rc_suite (fallo inesperado o lista no_aplican.yml desactualizada):"
  sed -n '/=== SUMMARY ===/,$p' "$MCP_TMP/conformidad.log" | tail -n 40
  rc=1
fi
"$PY" "$MCP_DIR/revisar.py" rebinding || rc=1

mcp_sin_errores || rc=1
echo "Conformidad MCP: $([ $rc -eq 0 ] && echo bien || echo FALLO) en $((SECONDS - inicio)) s"
exit $rc
