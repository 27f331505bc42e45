#!/usr/bin/env bash
# The official TypeScript SDK client 1.x (@modelcontextprotocol/sdk, pinned in scripts/mcp) against
# a live server: tools called into their errors (and a few successes) must come back as results
# that satisfy the tool's outputSchema, not as exceptions (scripts/mcp/errores_sdk.mjs).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mcp/servidor.sh"
inicio=$SECONDS

mcp_node_listo
mcp_servidor

rc=0
"$NODE" "$MCP_DIR/errores_sdk.mjs" || rc=1
mcp_sin_errores || rc=1
echo "SDK TypeScript: $([ $rc -eq 0 ] && echo bien || echo FALLO) en $((SECONDS - inicio)) s"
exit $rc
