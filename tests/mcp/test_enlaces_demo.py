"""Over the real demo: every tool that returns links, called as `completo` and as `limitado`;
every link opened with a signed-in session. Each person's own links open (200); what a person
may not see is 404; no link is the admin, and no signed-in person is sent to the sign-in page.

The links opened and their statuses are written to var/enlaces_abiertos.txt for the record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from apps.cuentas.models import User
from apps.solicitudes.models import Solicitud
from hub.herramientas.registro import registro
from tests.demo import cargar_demo
from tests.mcp_cliente import llamar

pytestmark = pytest.mark.django_db

ENLACES_ABIERTOS = Path(__file__).resolve().parents[2] / "var" / "enlaces_abiertos.txt"


def _enlaces(datos: Any) -> list[tuple[str, str]]:
    """Every (enlace, url) pair anywhere in a structuredContent."""
    if isinstance(datos, list):
        return [par for valor in datos for par in _enlaces(valor)]
    if not isinstance(datos, dict):
        return []
    propios = [(datos["enlace"], datos.get("url"))] if "enlace" in datos else []
    return propios + [par for valor in datos.values() for par in _enlaces(valor)]


def _ficha(fuente: str) -> dict:
    return {"ficha": {"fuente": fuente, "titulo": f"Reporte de {fuente}", "formato": "xlsx"}}


def _llamadas(demo: dict, quien: str) -> list[tuple[str, dict]]:
    """The link-returning tools with arguments that give each person links of their own."""
    ajena = demo["solicitud_ajena"]
    propias = [
        ("buscar_solicitudes", {"limite": 30}),
        ("busqueda_global", {"texto": "solicitud", "limite": 10}),
        ("busqueda_global", {"texto": "procedimiento", "limite": 10}),
        ("buscar_documento", {"texto": "procedimiento", "limite": 50}),
        (
            "radicar_mesa_ayuda",
            {
                "asunto": "El tablero no carga",
                "descripcion": "Al abrir el tablero de presupuesto la página queda en blanco.",
            },
        ),
    ]
    if quien == "limitado":
        return propias
    return [
        *propias,
        ("buscar_solicitudes", {"alcance": "todas", "limite": 30}),
        ("busqueda_global", {"texto": "contrato", "limite": 10}),
        ("busqueda_global", {"texto": demo["cdp"], "ambitos": ["presupuesto"]}),
        ("estado_solicitud", {"numero_radicado": ajena}),
        ("resumen_solicitud", {"numero_radicado": ajena}),
        ("comentar_solicitud", {"numero_radicado": ajena, "comentario": "Revisado, gracias."}),
        ("mis_tareas", {"limite": 50}),
        ("estado_cdp", {"numero": demo["cdp"]}),
        ("estado_cdp", {"numero": demo["cdp_externo"]}),
        ("estado_rp", {"numero": demo["rp"]}),
        ("reporte_preparar", _ficha("cdp")),
        ("reporte_preparar", _ficha("rp")),
        ("reporte_preparar", _ficha("paa")),
        ("resumen_ejecutivo", {"ambito": "paa_mes"}),
    ]


def _agregar_las_de_limitado(demo: dict, cabeceras: dict) -> list[tuple[str, dict]]:
    """limitado's own requests by number: estado, resumen and a comment preview."""
    propias = Solicitud.objects.del_solicitante(User.objects.get(username="limitado"))
    numero = propias.exclude(numero_radicado=None).values_list("numero_radicado", flat=True)[0]
    return [
        ("estado_solicitud", {"numero_radicado": numero}),
        ("resumen_solicitud", {"numero_radicado": numero}),
        ("comentar_solicitud", {"numero_radicado": numero, "comentario": "Gracias por revisar."}),
    ]


def _recoger(client, demo: dict, quien: str) -> dict[str, set[tuple[str, str]]]:
    """tool name -> the links its results gave `quien` (write tools confirmed when asked)."""
    cabeceras = {"X-MCP-Api-Key": demo["api_key"], "X-MCP-User-Token": demo["tokens"][quien]}
    llamadas = _llamadas(demo, quien)
    if quien == "limitado":
        llamadas += _agregar_las_de_limitado(demo, cabeceras)
    por_herramienta: dict[str, set[tuple[str, str]]] = {}
    for nombre, argumentos in llamadas:
        resultado = llamar(client, nombre, argumentos, **cabeceras).resultado
        assert resultado["isError"] is False, (quien, nombre, resultado["structuredContent"])
        datos = resultado["structuredContent"]
        if nombre == "radicar_mesa_ayuda":  # the ticket exists only once confirmed
            confirmado = {**argumentos, "confirmar": True, "token_confirmacion": None}
            confirmado["token_confirmacion"] = datos["token_confirmacion"]
            datos = llamar(client, nombre, confirmado, **cabeceras).resultado["structuredContent"]
        por_herramienta.setdefault(nombre, set()).update(_enlaces(datos))
    return por_herramienta


def _sesion(usuario: str) -> Client:
    cliente = Client()
    cliente.force_login(User.objects.get(username=usuario))
    return cliente


def _abrir(cliente: Client, enlace: str) -> int:
    r = cliente.get(enlace)
    assert r.status_code != 302 or "/cuentas/login/" not in r["Location"], enlace
    if r.status_code == 200:
        assert r["Content-Type"].startswith("text/html"), enlace
    return r.status_code


def _visible_para_limitado(enlace: str) -> bool:
    """What limitado may open: the quality documents and the requests he may see; no budget
    screen, no report builder (he has no budget permission)."""
    if enlace.startswith("/calidad/documentos/"):
        return True
    if enlace.startswith("/solicitudes/"):
        pk = int(enlace.rsplit("/", 1)[1])
        limitado = User.objects.get(username="limitado")
        return Solicitud.objects.visibles_para(limitado).filter(pk=pk).exists()
    return False


def test_every_link_of_every_tool_opens_for_its_person_and_404s_for_the_other(tmp_path):
    demo = cargar_demo(tmp_path)
    client = Client()
    enlaces = {quien: _recoger(client, demo, quien) for quien in ("completo", "limitado")}

    # Every tool whose outputSchema declares `enlace` was called, and gave links.
    con_enlace = {h.nombre for h in registro if '"enlace"' in json.dumps(h.esquema_salida)}
    assert con_enlace == set(enlaces["completo"]), con_enlace ^ set(enlaces["completo"])
    assert all(enlaces["completo"].values()), enlaces["completo"]
    assert {"buscar_documento", "buscar_solicitudes", "radicar_mesa_ayuda"} <= {
        n for n, pares in enlaces["limitado"].items() if pares
    }

    lineas = []
    sesiones = {quien: _sesion(quien) for quien in enlaces}
    for quien, por_herramienta in enlaces.items():
        for herramienta, pares in sorted(por_herramienta.items()):
            for enlace, url in sorted(pares):
                assert not enlace.startswith("/admin/"), (herramienta, enlace)
                assert url == settings.HUB_URL_PUBLICA + enlace, (herramienta, enlace, url)
                status = _abrir(sesiones[quien], enlace)
                assert status == 200, (quien, herramienta, enlace, status)
                lineas.append(f"{quien}\t{herramienta}\t{enlace[:90]}\t{status}")

    # completo's links opened by limitado: his own requests and the documents open, the rest
    # is the same 404 as a page that does not exist.
    vistos = 0
    for herramienta, pares in sorted(enlaces["completo"].items()):
        for enlace, _ in sorted(pares):
            status = _abrir(sesiones["limitado"], enlace)
            esperado = 200 if _visible_para_limitado(enlace) else 404
            assert status == esperado, (herramienta, enlace, status)
            vistos += esperado == 404
            lineas.append(f"limitado abre de completo\t{herramienta}\t{enlace[:90]}\t{status}")
    assert vistos > 10  # budget screens, builder, other people's requests

    ENLACES_ABIERTOS.parent.mkdir(parents=True, exist_ok=True)
    ENLACES_ABIERTOS.write_text("\n".join(lineas) + "\n", encoding="utf-8")


def test_a_link_opened_without_a_session_asks_to_sign_in_except_public_documents(tmp_path):
    demo = cargar_demo(tmp_path)
    por_herramienta = _recoger(Client(), demo, "completo")
    anonimo = Client()
    for herramienta, pares in por_herramienta.items():
        for enlace, _ in pares:
            r = anonimo.get(enlace)
            if enlace.startswith("/calidad/documentos/"):
                assert r.status_code == 200, enlace  # public, as buscar_documento is
            else:
                assert r.status_code == 302, (herramienta, enlace)
                assert r["Location"].startswith("/cuentas/login/?next="), enlace
