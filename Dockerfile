# Imagen de producción del hub: gunicorn con workers sync, usuario sin privilegios.
# Construir: docker build -t hub .    Ejecutar: ver docs/despliegue.md
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=hub.settings

WORKDIR /app

# Usuario y grupo del sistema, sin shell: el proceso nunca corre como root.
RUN groupadd --system hub \
    && useradd --system --gid hub --home-dir /app --no-create-home --shell /usr/sbin/nologin hub

# Pango y una fuente para WeasyPrint (los PDF de los documentos firmados): la imagen slim no
# los trae y sus ruedas de Python no los incluyen.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
       libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

# Dependencias primero: la capa se reutiliza mientras requirements.txt no cambie.
# Todas tienen ruedas (wheels) para linux/amd64 y arm64: no hace falta compilador.
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .

# Archivos estáticos en la imagen (var/static). La clave es desechable y solo existe en este
# paso: collectstatic no firma nada ni abre la base de datos.
RUN SECRET_KEY="solo-para-collectstatic-$(date +%s)-no-se-usa-en-ejecucion-0123456789" \
    DATABASE_URL="sqlite:////tmp/construccion.sqlite3" \
    python manage.py collectstatic --noinput \
    && rm -f /tmp/construccion.sqlite3 \
    && mkdir -p /app/var/media \
    && chown -R hub:hub /app/var

USER hub

EXPOSE 8000

# La misma comprobación que /salud/ (base de datos y caché); 0 = sano, 1 = no.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "manage.py", "health_check"]

CMD ["gunicorn", "-c", "gunicorn.conf.py", "hub.wsgi"]
