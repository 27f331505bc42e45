# The two commands of the README: `make run` and `make test`. Everything else is their plumbing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.instalado
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?= -n 2

.PHONY: run test lint format venv navegador pango clean-db bench openapi

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

## The service on the embedded default (SQLite and the file cache under var/) with demo data.
## DEBUG: a local secret key is kept in var/ (outside DEBUG, SECRET_KEY is required).
## Errors still show the branded pages; HUB_DEBUG_TECNICO=true gives Django's technical ones.
run: export DEBUG = true
run: export HUB_URL_PUBLICA = http://$(HOST):$(PORT)
run: $(STAMP) pango
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_data --salida var/demo.json --resumen --base http://$(HOST):$(PORT)
	$(PY) manage.py runserver $(HOST):$(PORT)

## The whole suite; honours DATABASE_URL and REDIS_URL (default: SQLite and the file cache).
test: $(STAMP) navegador pango
	$(PY) -m pytest $(PYTEST_ARGS)

## Debian's Chromium for the browser tests (installed once, if missing).
navegador:
	@command -v chromium >/dev/null 2>&1 || scripts/instalar_chromium.sh

## The OpenAPI schema of the v1 interface, regenerated and validated (tests fail if it is stale).
openapi: $(STAMP)
	DEBUG=true $(PY) manage.py spectacular --file docs/openapi.yaml --validate --fail-on-warn

## Pango and fonts for WeasyPrint, the signed documents' PDFs (installed once, if missing).
pango:
	@scripts/instalar_pango.sh

## Load test at a million requests: hub, bare Django view and MCP SDK peer side by side (wrk,
## PostgreSQL, Redis). Not part of `make test`. Knobs: BENCH_ESCALA, BENCH_DURACION, ... (bench/correr.py).
bench: $(STAMP)
	@command -v wrk >/dev/null 2>&1 || { echo "falta wrk: apt-get install wrk"; exit 1; }
	$(PY) -m bench.correr

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
