#!/usr/bin/env bash
# Installs what WeasyPrint (the signed documents' PDFs) needs from Debian: Pango and its fonts.
# Its Python wheels come from requirements.txt; these libraries cannot.
set -euo pipefail
PAQUETES=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
faltan=()
for paquete in "${PAQUETES[@]}"; do
  dpkg -s "$paquete" >/dev/null 2>&1 || faltan+=("$paquete")
done
[ "${#faltan[@]}" -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${faltan[@]}" >/dev/null
