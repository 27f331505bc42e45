# Sourced by scripts/mcp_*.sh: Node 22 from scripts/mcp/node_modules and a throwaway live server.
#
# The server is the production one (gunicorn.conf.py, hub.wsgi, 2 sync workers) over a temporary
# SQLite database with the demo data; it is killed and its folder removed on exit. When MCP_URL,
# MCP_DEMO and MCP_TMP are already set (scripts/mcp_externo.sh runs all three scripts), it is reused.
# Knobs: MCP_PUERTOS (default 8100-8199, the first free one is used), REDIS_URL (default: the
# file cache in the scratch folder; a private HUB_CACHE_PREFIJO is used either way),
# MCP_CONSERVAR=1 (keep the scratch folder: logs, database, results).

RAIZ="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MCP_DIR="$RAIZ/scripts/mcp"
NODE="$MCP_DIR/node_modules/.bin/node"
PY="$RAIZ/.venv/bin/python"
MCP_PUERTOS="${MCP_PUERTOS:-8100-8199}"

# The pinned tools (package-lock.json), installed with `npm ci` when missing or stale.
mcp_node_listo() {
  if [ ! -x "$NODE" ] || [ "$MCP_DIR/package-lock.json" -nt "$MCP_DIR/node_modules/.package-lock.json" ]; then
    echo "-- npm ci --prefix scripts/mcp (Node 22, conformance, inspector, sdk, client, mcp-remote)"
    npm ci --prefix "$MCP_DIR" --no-audit --no-fund --prefer-offline --loglevel=error
  fi
  "$NODE" --version >/dev/null
}

_puerto_libre() {
  local desde hasta
  desde="${MCP_PUERTOS%-*}"
  hasta="${MCP_PUERTOS#*-}"
  "$PY" - "$desde" "$hasta" <<'EOF'
import socket
import sys

for puerto in range(int(sys.argv[1]), int(sys.argv[2]) + 1):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", puerto))
        except OSError:
            continue
        print(puerto)
        sys.exit(0)
sys.exit("no hay puerto libre en " + " - ".join(sys.argv[1:]))
EOF
}

_MCP_PID=""
_MCP_TMP=""
_MCP_PREFIJO="mcp-externo-$$"

_mcp_apagar() {
  if [ -n "$_MCP_PID" ] && kill -0 "$_MCP_PID" 2>/dev/null; then
    kill "$_MCP_PID" 2>/dev/null || true
    wait "$_MCP_PID" 2>/dev/null || true
  fi
  # Keys of this run in a shared Redis (some have no expiry): removed, not left to pile up.
  if [ -n "$_MCP_PID" ] && [ -n "${REDIS_URL:-}" ] && command -v redis-cli >/dev/null; then
    redis-cli -u "$REDIS_URL" --scan --pattern "$_MCP_PREFIJO:*" 2>/dev/null \
      | xargs -r redis-cli -u "$REDIS_URL" del >/dev/null 2>&1 || true
  fi
  if [ -n "$_MCP_TMP" ] && [ -z "${MCP_CONSERVAR:-}" ]; then
    rm -rf "$_MCP_TMP"
  elif [ -n "$_MCP_TMP" ]; then
    echo "-- conservado: $_MCP_TMP (gunicorn.log, resultados)"
  fi
}

# Exports MCP_URL, MCP_DEMO (demo credentials JSON), MCP_TMP (scratch folder, removed on exit).
mcp_servidor() {
  if [ -n "${MCP_URL:-}" ] && [ -n "${MCP_DEMO:-}" ] && [ -n "${MCP_TMP:-}" ]; then
    return 0
  fi
  _MCP_TMP="$(mktemp -d /tmp/mcp_externo.XXXXXX)"
  trap _mcp_apagar EXIT
  trap 'exit 130' INT TERM
  local puerto
  puerto="$(_puerto_libre)"
  export MCP_TMP="$_MCP_TMP"
  export MCP_URL="http://127.0.0.1:$puerto/mcp/api/mcp"
  export MCP_DEMO="$MCP_TMP/demo.json"
  mkdir -p "$MCP_TMP/home"
  local -a entorno=(
    env -u HUB_PRODUCCION -u DEBUG
    SECRET_KEY="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(50))')"
    HUB_URL_PUBLICA="http://127.0.0.1:$puerto"
    DATABASE_URL="sqlite:///$MCP_TMP/db.sqlite3"
    HUB_CACHE_PREFIJO="$_MCP_PREFIJO"
    HUB_CACHE_DIR="$MCP_TMP/cache"
    HUB_MEDIA_ROOT="$MCP_TMP/media"
    HUB_LOG_FORMATO=texto
  )
  # The same environment for manage.py while the server runs (mcp_gestionar), the shared cache
  # included (a setting saved elsewhere would leave the server's cached copy stale); 0700 folder.
  (umask 077 && printf '%s\n' "${entorno[@]}" ${REDIS_URL:+"REDIS_URL=$REDIS_URL"} \
    >"$MCP_TMP/entorno")
  local t0=$SECONDS
  echo "-- servidor: migrate + demo_data (SQLite en $MCP_TMP)"
  (cd "$RAIZ" && "${entorno[@]}" "$PY" manage.py migrate --noinput -v0)
  (cd "$RAIZ" && "${entorno[@]}" "$PY" manage.py demo_data --salida "$MCP_DEMO" \
    --base "http://127.0.0.1:$puerto" >"$MCP_TMP/demo.log" 2>&1) || {
    cat "$MCP_TMP/demo.log" >&2
    return 1
  }
  # The suites send ~150 requests in a few seconds as one person: the per-user limits (an
  # administrator's settings; the 2026-07-28 clients confirm 16 writes) are raised in this
  # throwaway database only, so none is a 429.
  (cd "$RAIZ" && "${entorno[@]}" "$PY" manage.py shell -c "
from apps.mcp.models import AjustesAsistente
ajustes = AjustesAsistente.cargar()
ajustes.usuario_por_minuto = ajustes.integracion_por_minuto = 1000
ajustes.escrituras_por_minuto = 100
ajustes.save()" >/dev/null)
  (cd "$RAIZ" && exec "${entorno[@]}" HUB_BIND="127.0.0.1:$puerto" WEB_CONCURRENCY=2 \
    "$RAIZ/.venv/bin/gunicorn" -c gunicorn.conf.py hub.wsgi >"$MCP_TMP/gunicorn.log" 2>&1) &
  _MCP_PID=$!
  local ping="http://127.0.0.1:$puerto/mcp/api/v1/ping"
  for _ in $(seq 1 60); do
    if curl -fsS -o /dev/null "$ping" 2>/dev/null; then
      echo "-- servidor listo en 127.0.0.1:$puerto ($((SECONDS - t0)) s, pid $_MCP_PID)"
      return 0
    fi
    kill -0 "$_MCP_PID" 2>/dev/null || break
    sleep 0.5
  done
  echo "FALLO: el servidor no respondió en $ping" >&2
  tail -n 40 "$MCP_TMP/gunicorn.log" >&2 || true
  return 1
}

# manage.py against the live server's database and cache, e.g. to switch a setting mid-run.
mcp_gestionar() {
  local -a entorno
  mapfile -t entorno <"$MCP_TMP/entorno"
  (cd "$RAIZ" && "${entorno[@]}" "$PY" manage.py "$@")
}

# Switches "aprobar escrituras en el hub" (AjustesAsistente.aprobar_en_el_hub) on or off.
mcp_aprobar_en_el_hub() {
  mcp_gestionar shell -c "
from apps.mcp.models import AjustesAsistente
ajustes = AjustesAsistente.cargar()
ajustes.aprobar_en_el_hub = $1
ajustes.save()" >/dev/null
}

# Fails when the server answered any 5xx or logged a traceback (whatever the tools concluded).
# Django logs a refused Host (DisallowedHost, our expected 400) with its traceback: not an error.
mcp_sin_errores() {
  local log="$MCP_TMP/gunicorn.log"
  local cincos trazas host_ajeno
  cincos="$(grep -cE 'HTTP/1\.[01]" 5[0-9]{2} ' "$log" || true)"
  trazas="$(grep -c '^Traceback' "$log" || true)"
  host_ajeno="$(grep -c '^django.core.exceptions.DisallowedHost: ' "$log" || true)"
  if [ "$cincos" -ne 0 ] || [ "$trazas" -ne "$host_ajeno" ]; then
    echo "FALLO: el servidor respondió $cincos veces 5xx y registró $trazas trazas:" >&2
    grep -E -A12 'HTTP/1\.[01]" 5[0-9]{2} |^Traceback' "$log" | head -n 60 >&2
    return 1
  fi
  echo "Servidor: $(grep -cE 'HTTP/1\.[01]" [0-9]{3} ' "$log") peticiones atendidas, ninguna 5xx;" \
    "$host_ajeno Host ajeno rechazado (400) por ALLOWED_HOSTS."
}
