#!/usr/bin/env bash
# The clients of MCP revision 2026-07-28 against a live server: the TypeScript client v2
# (@modelcontextprotocol/client, pinned in scripts/mcp) and the Python SDK 2.3 (requirements-dev),
# each in its default negotiating mode and pinned to 2026-07-28, through a personal token and
# OAuth, every tool and both writes (scripts/mcp/cliente_2026.mjs and .py); then, with the approval
# of writes on the hub switched on, the TypeScript client's URL elicitation to the approval page
# (scripts/mcp/aprobacion_2026.mjs), and the setting switched off again; and mcp-remote
# `--protocol auto` bridging a 2025-era stdio client to the hub (scripts/mcp/remoto_2026.mjs).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp/servidor.sh"
inicio=$SECONDS

mcp_node_listo
mcp_servidor

rc=0
"$NODE" "$MCP_DIR/cliente_2026.mjs" || rc=1
"$PY" "$MCP_DIR/cliente_2026.py" || rc=1
mcp_aprobar_en_el_hub True
"$NODE" "$MCP_DIR/aprobacion_2026.mjs" || rc=1
mcp_aprobar_en_el_hub False
"$NODE" "$MCP_DIR/remoto_2026.mjs" || rc=1
mcp_sin_errores || rc=1
echo "Clientes 2026-07-28: $([ $rc -eq 0 ] && echo bien || echo FALLO) en $((SECONDS - inicio)) s"
exit $rc
