#!/usr/bin/env bash
# The MCP Inspector CLI (@modelcontextprotocol/inspector --cli, pinned in scripts/mcp) against a
# live server: lists the tools (with --strict schema lint) and calls buscar_documento and
# estado_solicitud with the demo API key, mis_accesos and estado_solicitud with the demo personal
# token, estado_cdp into its NO_ENCONTRADO (a result, not a failure), plus two refusals;
# scripts/mcp/revisar.py checks every answer.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp/servidor.sh"
inicio=$SECONDS

mcp_node_listo
mcp_servidor

echo "== Inspector MCP (CLI) $("$NODE" "$MCP_DIR/node_modules/.bin/mcp-inspector" --version) contra $MCP_URL =="
rc=0
"$PY" "$MCP_DIR/revisar.py" inspector || rc=1
mcp_sin_errores || rc=1
echo "Inspector MCP: $([ $rc -eq 0 ] && echo bien || echo FALLO) en $((SECONDS - inicio)) s"
exit $rc
