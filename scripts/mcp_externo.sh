#!/usr/bin/env bash
# Outside MCP tools against one live server (started once): the conformance suite, the Inspector
# CLI, then the TypeScript SDK 1.x client through tool errors. Each can also run alone
# (scripts/mcp_conformidad.sh, scripts/mcp_inspector.sh, scripts/mcp_sdk_ts.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp/servidor.sh"
inicio=$SECONDS

mcp_node_listo
mcp_servidor

rc=0
"$RAIZ/scripts/mcp_conformidad.sh" || rc=1
"$RAIZ/scripts/mcp_inspector.sh" || rc=1
"$RAIZ/scripts/mcp_sdk_ts.sh" || rc=1
echo "== Herramientas MCP externas: $([ $rc -eq 0 ] && echo bien || echo FALLO) en $((SECONDS - inicio)) s =="
exit $rc
