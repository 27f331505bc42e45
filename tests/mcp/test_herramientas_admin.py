"""The two administration tools: diagnostico_servicio and uso_asistente (aggregates only)."""

from __future__ import annotations

import json
import platform
from datetime import datetime, timedelta

import django
import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.utils import timezone

from apps.mcp import rechazos
from apps.mcp.models import RechazoAsistente, RegistroAuditoria
from hub.herramientas.registro import registro
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token, rechazo_contado_en_cache
from tests.mcp_cliente import ajustar, error_herramienta, llamar, resultado_valido, rpc

pytestmark = pytest.mark.django_db

ADMIN_TOOLS = {"diagnostico_servicio", "uso_asistente"}


_valida = resultado_valido


@pytest.fixture
def administradora():
    return UserFactory(
        username="administradora",
        permisos=["mcp.asistente.usar", "mcp.asistente.administrar"],
    )


@pytest.fixture
def como_admin(clave, administradora):
    return {**clave, "X-MCP-User-Token": nuevo_token(administradora)[1]}


# --- who sees them ---------------------------------------------------------------------------


def test_only_administrators_see_them_in_tools_list(
    client, clave, como_admin, como_limitado, como_completo
):
    def nombres(cabeceras):
        return {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}

    assert nombres(como_admin) >= ADMIN_TOOLS
    for cabeceras in (como_limitado, como_completo, clave):
        assert not ADMIN_TOOLS & nombres(cabeceras)


@pytest.mark.parametrize("nombre", sorted(ADMIN_TOOLS))
def test_others_get_sin_permiso_and_the_key_alone_sin_identidad(
    client, clave, como_limitado, como_completo, nombre
):
    for cabeceras in (como_limitado, como_completo):
        datos = error_herramienta(llamar(client, nombre, {}, **cabeceras), "SIN_PERMISO")
        assert set(datos) == {"codigo", "mensaje"}
    error_herramienta(llamar(client, nombre, {}, **clave), "SIN_IDENTIDAD")


@pytest.mark.parametrize("nombre", sorted(ADMIN_TOOLS))
def test_they_are_read_only_tools(client, como_admin, nombre):
    herramienta = {t["name"]: t for t in rpc(client, "tools/list", **como_admin).resultado["tools"]}
    anotaciones = herramienta[nombre]["annotations"]
    assert anotaciones["readOnlyHint"] is True
    assert anotaciones["destructiveHint"] is False


# --- diagnostico_servicio ----------------------------------------------------------------------


def test_the_diagnosis_reports_database_cache_versions_and_tools(client, como_admin):
    r = llamar(client, "diagnostico_servicio", {}, **como_admin)
    datos = _valida(r, "diagnostico_servicio")
    bd = datos["base_datos"]
    assert bd["motor"] == connection.vendor
    assert bd["version"] == ".".join(str(p) for p in connection.get_database_version())
    assert bd["ok"] is True and bd["error"] is None
    assert isinstance(bd["latencia_ms"], int | float) and bd["latencia_ms"] >= 0
    assert bd["migraciones_pendientes"] == 0
    cache = datos["cache"]
    assert cache["backend"] == settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    assert cache["ok"] is True and cache["error"] is None
    assert isinstance(cache["latencia_ms"], int | float) and cache["latencia_ms"] >= 0
    assert datos["versiones"] == {
        "python": platform.python_version(),
        "django": django.get_version(),
        "hub": settings.HUB_VERSION,
    }
    assert datos["herramientas_registradas"] == len(list(registro))
    assert datos["escrituras_habilitadas"] is True
    assert datos["zona_horaria"] == settings.TIME_ZONE
    assert datetime.fromisoformat(datos["hora_servidor"]).utcoffset() is not None
    resumen = r.resultado["content"][0]["text"]
    assert connection.vendor in resumen and settings.HUB_VERSION in resumen


def test_the_diagnosis_shows_writes_switched_off(client, como_admin):
    ajustar(escrituras_habilitadas=False)
    datos = _valida(
        llamar(client, "diagnostico_servicio", {}, **como_admin), "diagnostico_servicio"
    )
    assert datos["escrituras_habilitadas"] is False


def test_a_failing_cache_is_a_finding_not_a_crash(client, como_admin, monkeypatch):
    backend = caches["default"]

    def romper(*args, **kwargs):
        raise ConnectionError("redis://usuario:secreto@cache-interna:6379 no responde")

    monkeypatch.setattr(backend, "set", romper)
    r = llamar(client, "diagnostico_servicio", {}, **como_admin)
    datos = _valida(r, "diagnostico_servicio")
    assert datos["cache"]["ok"] is False
    assert datos["cache"]["latencia_ms"] is None
    assert datos["cache"]["error"] == "ConnectionError: no disponible"
    assert "secreto" not in json.dumps(r.resultado)
    assert datos["base_datos"]["ok"] is True


def test_the_diagnosis_reveals_no_secret_settings(client, como_admin):
    texto = json.dumps(llamar(client, "diagnostico_servicio", {}, **como_admin).resultado)
    assert settings.SECRET_KEY not in texto
    assert str(settings.DATABASES["default"].get("PASSWORD") or "¬") not in texto
    ubicacion = str(settings.CACHES["default"].get("LOCATION") or "")
    if "://" in ubicacion:  # a Redis URL may carry a password
        assert ubicacion not in texto


def test_the_diagnosis_takes_no_arguments(client, como_admin):
    r = llamar(client, "diagnostico_servicio", {"detalle": True}, **como_admin)
    assert error_herramienta(r, "DATOS_INVALIDOS")["campos"] == {"detalle": ["Campo no permitido."]}
    esquema = registro.obtener("diagnostico_servicio").esquema_entrada
    assert esquema == {"type": "object", "properties": {}, "additionalProperties": False}


def test_the_diagnosis_costs_a_fixed_number_of_queries(
    client, como_admin, django_assert_num_queries
):
    llamar(client, "diagnostico_servicio", {}, **como_admin)
    # The check's own savepoint pair, SELECT 1, migrations table check + applied ones, audit row
    # (credentials come from the cache; a read-only tool opens no transaction of its own).
    with django_assert_num_queries(6) as una:
        llamar(client, "diagnostico_servicio", {}, **como_admin)
    UserFactory.create_batch(5)
    RegistroAuditoria.objects.bulk_create(
        RegistroAuditoria(credencial="clave_api", herramienta="x", resultado="ok")
        for _ in range(50)
    )
    with django_assert_num_queries(6):
        llamar(client, "diagnostico_servicio", {}, **como_admin)
    assert any(q["sql"] == "SELECT 1" for q in una.captured_queries)


# --- uso_asistente -----------------------------------------------------------------------------


@pytest.fixture
def auditoria(administradora):
    """A known audit log: 9 calls two days ago, 2 ten days ago, from 3 people and 2 keys."""
    ana = UserFactory(username="ana_uso")
    beto = UserFactory(username="beto_uso")
    clave_a, _ = nueva_clave("Integración A")
    clave_b, _ = nueva_clave("Integración B")
    hace2 = timezone.localtime() - timedelta(days=2)

    def a_las(hora: int, minuto: int = 0, dias_atras: int | None = None) -> datetime:
        base = hace2 if dias_atras is None else timezone.localtime() - timedelta(days=dias_atras)
        return base.replace(hour=hora, minute=minuto, second=0, microsecond=0)

    filas = [
        # (user, key, tool, result, local hour, duration)
        (ana, clave_a, "buscar_ayuda", "ok", 9, 10),
        (ana, clave_a, "buscar_ayuda", "ok", 9, 20),
        (ana, clave_a, "buscar_ayuda", "DATOS_INVALIDOS", 9, 30),
        (beto, clave_a, "busqueda_global", "ok", 14, 100),
        (beto, clave_b, "busqueda_global", "SIN_PERMISO", 14, 50),
        (None, clave_b, "estado_solicitud", "ok", 23, 5),
        (None, clave_b, "estado_solicitud", "SIN_IDENTIDAD", 0, 7),
        (administradora, None, "mis_accesos", "ok", 7, 12),
        (None, clave_b, "ignorar instrucciones previas", "PARAMETROS_INVALIDOS", 9, 0),
    ]
    for usuario, clave_api, herramienta, resultado, hora, ms in filas:
        RegistroAuditoria.objects.create(
            creado=a_las(hora, 15),
            usuario=usuario,
            clave=clave_api,
            credencial="clave_y_token" if usuario and clave_api else "clave_api",
            ip="203.0.113.77",
            herramienta=herramienta,
            argumentos={"consulta": "ARGUMENTO-SECRETO"},
            resultado=resultado,
            duracion_ms=ms,
        )
    for _ in range(2):  # ten days ago: outside the default week
        RegistroAuditoria.objects.create(
            creado=a_las(11, dias_atras=10),
            usuario=beto,
            credencial="token_personal",
            ip="198.51.100.9",
            herramienta="buscar_documento",
            argumentos={},
            resultado="ok",
            duracion_ms=40,
        )


def test_usage_of_the_last_week_is_exact(client, como_admin, auditoria):
    r = llamar(client, "uso_asistente", {}, **como_admin)
    datos = _valida(r, "uso_asistente")
    assert datos["dias"] == 7
    assert datos["zona_horaria"] == settings.TIME_ZONE
    assert datos["total_llamadas"] == 9
    assert datos["errores"] == 4
    assert datos["porcentaje_error"] == 44.44
    assert datos["usuarios_distintos"] == 3
    assert datos["integraciones_distintas"] == 2
    assert datos["por_herramienta"] == [
        {
            "herramienta": "buscar_ayuda",
            "llamadas": 3,
            "errores": 1,
            "porcentaje_error": 33.33,
            "duracion_media_ms": 20.0,
        },
        {
            "herramienta": "busqueda_global",
            "llamadas": 2,
            "errores": 1,
            "porcentaje_error": 50.0,
            "duracion_media_ms": 75.0,
        },
        {
            "herramienta": "estado_solicitud",
            "llamadas": 2,
            "errores": 1,
            "porcentaje_error": 50.0,
            "duracion_media_ms": 6.0,
        },
        {
            "herramienta": "(no registradas)",
            "llamadas": 1,
            "errores": 1,
            "porcentaje_error": 100.0,
            "duracion_media_ms": 0.0,
        },
        {
            "herramienta": "mis_accesos",
            "llamadas": 1,
            "errores": 0,
            "porcentaje_error": 0.0,
            "duracion_media_ms": 12.0,
        },
    ]
    assert datos["por_resultado"] == [
        {"resultado": "ok", "llamadas": 5},
        {"resultado": "DATOS_INVALIDOS", "llamadas": 1},
        {"resultado": "PARAMETROS_INVALIDOS", "llamadas": 1},
        {"resultado": "SIN_IDENTIDAD", "llamadas": 1},
        {"resultado": "SIN_PERMISO", "llamadas": 1},
    ]
    assert datos["horas_pico"] == [
        {"hora": 9, "llamadas": 4},
        {"hora": 14, "llamadas": 2},
        {"hora": 0, "llamadas": 1},
        {"hora": 7, "llamadas": 1},
        {"hora": 23, "llamadas": 1},
    ]
    resumen = r.resultado["content"][0]["text"]
    assert "9 llamada(s), 4 con error (44.44 %)" in resumen
    assert "09:00 (4)" in resumen


def test_a_longer_window_takes_in_the_older_calls(client, como_admin, auditoria):
    datos = _valida(llamar(client, "uso_asistente", {"dias": 30}, **como_admin), "uso_asistente")
    assert datos["total_llamadas"] == 11
    assert datos["errores"] == 4
    assert datos["porcentaje_error"] == 36.36
    assert datos["por_herramienta"][0] == {
        "herramienta": "buscar_ayuda",
        "llamadas": 3,
        "errores": 1,
        "porcentaje_error": 33.33,
        "duracion_media_ms": 20.0,
    }
    assert [(h["herramienta"], h["llamadas"]) for h in datos["por_herramienta"]] == [
        ("buscar_ayuda", 3),
        ("buscar_documento", 2),
        ("busqueda_global", 2),
        ("estado_solicitud", 2),
        ("(no registradas)", 1),
        ("mis_accesos", 1),
    ]
    assert datos["horas_pico"][:2] == [{"hora": 9, "llamadas": 4}, {"hora": 11, "llamadas": 2}]


def test_one_day_sees_nothing_of_two_days_ago(client, como_admin, auditoria):
    r = llamar(client, "uso_asistente", {"dias": 1}, **como_admin)
    datos = _valida(r, "uso_asistente")
    assert datos["total_llamadas"] == 0
    assert datos["porcentaje_error"] == 0.0
    assert datos["por_herramienta"] == datos["por_resultado"] == datos["horas_pico"] == []
    assert "no hubo llamadas" in r.resultado["content"][0]["text"]


def test_the_report_never_shows_rows_arguments_ips_or_people(client, como_admin, auditoria):
    r = llamar(client, "uso_asistente", {"dias": 30}, **como_admin)
    texto = json.dumps(r.resultado, ensure_ascii=False)
    for secreto in (
        "ARGUMENTO-SECRETO",
        "203.0.113.77",
        "198.51.100.9",
        "ana_uso",
        "beto_uso",
        "Integración A",
        "ignorar instrucciones previas",
    ):
        assert secreto not in texto


def test_its_own_call_is_audited_after_the_figures(client, como_admin, auditoria):
    primero = _valida(llamar(client, "uso_asistente", {}, **como_admin), "uso_asistente")
    segundo = _valida(llamar(client, "uso_asistente", {}, **como_admin), "uso_asistente")
    assert segundo["total_llamadas"] == primero["total_llamadas"] + 1
    assert RegistroAuditoria.objects.filter(herramienta="uso_asistente").count() == 2


@pytest.mark.parametrize("dias", [0, 91, -1, "siete", 7.5])
def test_dias_out_of_bounds_is_datos_invalidos(client, como_admin, dias):
    r = llamar(client, "uso_asistente", {"dias": dias}, **como_admin)
    assert set(error_herramienta(r, "DATOS_INVALIDOS")["campos"]) == {"dias"}


@pytest.mark.parametrize("dias", [1, 90])
def test_the_bounds_of_dias_are_accepted(client, como_admin, dias):
    datos = _valida(llamar(client, "uso_asistente", {"dias": dias}, **como_admin), "uso_asistente")
    assert datos["dias"] == dias


def test_the_usage_costs_the_same_whatever_the_volume(
    client, como_admin, auditoria, django_assert_num_queries
):
    llamar(client, "uso_asistente", {}, **como_admin)
    # Five GROUP BY queries of the audit log (the fifth by OAuth client), the pending refusal
    # counts, one GROUP BY of the refusals, audit row (credentials come from the cache).
    with django_assert_num_queries(8):
        llamar(client, "uso_asistente", {}, **como_admin)
    RegistroAuditoria.objects.bulk_create(
        RegistroAuditoria(
            creado=timezone.now() - timedelta(hours=i % 48),
            credencial="clave_api",
            herramienta=f"herramienta_{i % 7}",
            resultado="ok" if i % 3 else "SIN_PERMISO",
        )
        for i in range(300)
    )
    RechazoAsistente.objects.bulk_create(
        RechazoAsistente(
            minuto=timezone.now().replace(second=0, microsecond=0) - timedelta(minutes=i + 2),
            quien=f"ip 192.0.2.{i % 250}",
            direccion=f"192.0.2.{i % 250}",
            estado=401,
            codigo="NO_AUTENTICADO",
            veces=i,
            pendiente=False,
        )
        for i in range(300)
    )
    with django_assert_num_queries(8):
        datos = _valida(llamar(client, "uso_asistente", {}, **como_admin), "uso_asistente")
    assert datos["total_llamadas"] == 9 + 2 + 300  # the two earlier uso_asistente calls


# --- uso_asistente: calls refused before any tool ran ------------------------------------------


@pytest.fixture
def rechazados():
    """Refusal counts two days ago at 09:xx and 14:xx local time, and one ten days ago."""
    ana = UserFactory(username="ana_rechazada")
    clave_a, _ = nueva_clave("Integración rechazada")
    hace2 = timezone.localtime() - timedelta(days=2)

    def a_las(hora: int, minuto: int = 0, dias: int = 2) -> datetime:
        base = timezone.localtime() - timedelta(days=dias) if dias != 2 else hace2
        return base.replace(hour=hora, minute=minuto, second=0, microsecond=0)

    filas = [
        (a_las(9, 1), dict(quien=f"u{ana.pk}", usuario=ana), 403, "SIN_PERMISO", 4),
        (
            a_las(9, 2),
            dict(quien="ip 203.0.113.66", direccion="203.0.113.66"),
            401,
            "NO_AUTENTICADO",
            120,
        ),
        (
            a_las(14, 5),
            dict(quien="ip 198.51.100.7", direccion="198.51.100.7"),
            401,
            "NO_AUTENTICADO",
            30,
        ),
        (
            a_las(14, 6),
            dict(quien="ip 198.51.100.7", direccion="198.51.100.7"),
            401,
            "TOKEN_MCP_INVALIDO",
            2,
        ),
        (a_las(14, 7), dict(quien=f"k{clave_a.pk}", clave=clave_a), 429, "RATE_LIMIT", 7),
        (
            a_las(11, 0, dias=10),
            dict(quien="ip 192.0.2.1", direccion="192.0.2.1"),
            401,
            "NO_AUTENTICADO",
            1000,
        ),
    ]
    for minuto, quien, estado, codigo, veces in filas:
        RechazoAsistente.objects.create(
            minuto=minuto, estado=estado, codigo=codigo, veces=veces, pendiente=False, **quien
        )


def test_usage_shows_the_refusals_as_totals_by_code_and_hour(client, como_admin, rechazados):
    r = llamar(client, "uso_asistente", {}, **como_admin)
    datos = _valida(r, "uso_asistente")
    assert datos["rechazos"] == {
        "total": 163,
        "por_codigo": [
            {"estado": 401, "codigo": "NO_AUTENTICADO", "veces": 150},
            {"estado": 429, "codigo": "RATE_LIMIT", "veces": 7},
            {"estado": 403, "codigo": "SIN_PERMISO", "veces": 4},
            {"estado": 401, "codigo": "TOKEN_MCP_INVALIDO", "veces": 2},
        ],
        "horas_pico": [{"hora": 9, "veces": 124}, {"hora": 14, "veces": 39}],
    }
    resumen = r.resultado["content"][0]["text"]
    assert "rechazadas antes de llegar a una herramienta (credenciales, acceso o límite): 163" in (
        resumen
    )
    treinta = _valida(llamar(client, "uso_asistente", {"dias": 30}, **como_admin), "uso_asistente")
    assert treinta["rechazos"]["total"] == 1163


def test_usage_of_refusals_never_names_a_person_an_address_or_a_key(client, como_admin, rechazados):
    r = llamar(client, "uso_asistente", {"dias": 30}, **como_admin)
    texto = json.dumps(r.resultado, ensure_ascii=False)
    ana = UserFactory(username="ana_rechazada")
    for nombre in (
        "ana_rechazada",
        "Integración rechazada",
        "203.0.113.66",
        "198.51.100.7",
        "192.0.2.1",
        f"u{ana.pk}",
    ):
        assert nombre not in texto


def test_usage_counts_the_refusals_still_in_the_cache(client, como_admin, monkeypatch):
    minuto = timezone.now().replace(second=0, microsecond=0)
    monkeypatch.setattr(rechazos, "minuto_actual", lambda: minuto)
    rechazo_contado_en_cache(33)
    datos = _valida(llamar(client, "uso_asistente", {}, **como_admin), "uso_asistente")
    assert datos["rechazos"]["total"] == 33


def test_usage_without_refusals_says_none(client, como_admin):
    r = llamar(client, "uso_asistente", {}, **como_admin)
    datos = _valida(r, "uso_asistente")
    assert datos["rechazos"] == {"total": 0, "por_codigo": [], "horas_pico": []}
