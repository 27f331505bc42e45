#!/usr/bin/env bash
# Outside MCP tools against one live server (started once): the conformance suite, the Inspector
# CLI, the TypeScript SDK 1.x client through tool errors, then the 2026-07-28 clients (TypeScript
# client v2 and Python SDK 2.3, negotiating and pinned, OAuth and URL elicitation included, and
# mcp-remote --protocol auto). Each can also run alone
# (scripts/mcp_conformidad.sh, scripts/mcp_inspector.sh, scripts/mcp_sdk_ts.sh,
# scripts/mcp_clientes_2026.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp/servidor.sh"
inicio=$SECONDS

mcp_node_listo
mcp_servidor

rc=0
"$RAIZ/scripts/mcp_conformidad.sh" || rc=1
"$RAIZ/scripts/mcp_inspector.sh" || rc=1
"$RAIZ/scripts/mcp_sdk_ts.sh" || rc=1
"$RAIZ/scripts/mcp_clientes_2026.sh" || rc=1
echo "== Herramientas MCP externas: $([ $rc -eq 0 ] && echo bien || echo FALLO) en $((SECONDS - inicio)) s =="
exit $rc
