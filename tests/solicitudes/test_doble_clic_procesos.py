"""The double click against live servers (issue 35, item 1): one person sends the same form
several times at the same moment, spread over two server processes sharing the database. The
request moves once, a signature stage is never passed by advancing, a task is taken once, and a
comment is stored once; every other copy answers 409 «La solicitud cambió mientras usted la
veía». Without the form's marker the row lock alone let each copy act (issue 35's probe)."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from html import unescape

import httpx
import pytest

from tests.procesos import base_migrada, manage, servidores

pytestmark = pytest.mark.procesos

COPIAS = 4
CLAVE = "clave-de-prueba-123"
CAMBIO = "La solicitud cambió mientras usted la veía"

# A type with a signature at its second stage; one person holding every role; four requests.
_PREPARAR = """
import json
from django.contrib.auth.models import Group, Permission
from apps.cuentas.models import Area, User
from apps.solicitudes import services
from apps.solicitudes.models import Etapa, TipoSolicitud
area = Area.objects.create(nombre="Talento Humano", sigla="GTH")
roles = [Group.objects.create(name=f"Rol {i}") for i in (1, 2, 3)]
tipo = TipoSolicitud.objects.create(codigo="doble", nombre="Doble clic", area=area)
for orden, rol in enumerate(roles, 1):
    Etapa.objects.create(tipo=tipo, orden=orden, nombre=f"Etapa {orden}", rol=rol,
                         requiere_firma=(orden == 2))
persona = User.objects.create_user(username="completo", password=CLAVE, first_name="Completo")
persona.groups.set(roles)
persona.user_permissions.add(Permission.objects.get(codename="radicar"))
ids = {}
for caso in ("avanzar", "firma", "tomar", "comentar"):
    s = services.radicar(tipo=tipo, solicitante=persona, resumen=f"Solicitud para {caso}")
    if caso == "firma":
        s = services.avanzar(solicitud=s, actor=persona)
    ids[caso] = s.pk
print(json.dumps(ids))
"""

_LEER = """
import json
from apps.solicitudes.models import Comentario, Evento, Solicitud
salida = {}
for caso, pk in IDS.items():
    s = Solicitud.objects.select_related("etapa_actual").get(pk=pk)
    salida[caso] = {
        "estado": s.estado,
        "etapa": s.etapa_actual.orden if s.etapa_actual else None,
        "eventos": list(
            Evento.objects.filter(solicitud=s).order_by("pk").values_list("accion", flat=True)
        ),
        "comentarios": Comentario.objects.filter(solicitud=s).count(),
    }
print(json.dumps(salida))
"""


@pytest.fixture(scope="module")
def vivos(tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("doble_clic")
    with base_migrada(carpeta) as env:
        salida = manage(env, "shell", "-c", f"CLAVE = {CLAVE!r}\n{_PREPARAR}").stdout
        ids = json.loads(salida.strip().splitlines()[-1])
        with servidores(env, 2) as bases:
            yield env, bases, ids


def _leer(env, ids) -> dict:
    salida = manage(env, "shell", "-c", f"IDS = {ids!r}\n{_LEER}").stdout
    return json.loads(salida.strip().splitlines()[-1])


def _oculto(pagina: str, nombre: str) -> str:
    return unescape(re.search(rf'name="{nombre}" value="([^"]*)"', pagina)[1])


def _sesion(base: str) -> httpx.Client:
    cliente = httpx.Client(timeout=30)
    pagina = cliente.get(f"{base}/cuentas/login/").text
    r = cliente.post(
        f"{base}/cuentas/login/",
        data={
            "csrfmiddlewaretoken": _oculto(pagina, "csrfmiddlewaretoken"),
            "username": "completo",
            "password": CLAVE,
        },
    )
    assert r.status_code == 302, r.text
    return cliente


def _a_la_vez(
    cliente: httpx.Client, bases: list[str], ruta: str, datos: dict, motivo: str = CAMBIO
) -> list[int]:
    """COPIAS identical POSTs of one form (same cookies, same CSRF token), at once, spread over
    both servers: the statuses, sorted (each 409 giving `motivo`)."""
    with ThreadPoolExecutor(COPIAS) as hilos:
        respuestas = list(
            hilos.map(lambda i: cliente.post(f"{bases[i % 2]}{ruta}", data=datos), range(COPIAS))
        )
    for r in respuestas:
        assert r.status_code in (302, 409), r.text
        if r.status_code == 409:
            assert motivo in unescape(r.text)
    return sorted(r.status_code for r in respuestas)


def _formulario(cliente: httpx.Client, base: str, pk: int, *campos: str) -> dict:
    pagina = cliente.get(f"{base}/solicitudes/{pk}").text
    return {campo: _oculto(pagina, campo) for campo in ("csrfmiddlewaretoken", *campos)}


def test_identical_posts_at_once_move_take_and_comment_once(vivos):
    env, bases, ids = vivos
    cliente = _sesion(bases[0])

    avanzar = _formulario(cliente, bases[0], ids["avanzar"], "version")
    assert _a_la_vez(cliente, bases, f"/solicitudes/{ids['avanzar']}/avanzar", avanzar) == [
        302,
        *[409] * (COPIAS - 1),
    ]
    # At the signature stage advancing is refused to every copy: nothing passes it unsigned.
    firma = _formulario(cliente, bases[0], ids["firma"], "version")
    ruta = f"/solicitudes/{ids['firma']}/avanzar"
    firma_requerida = "se completa con la firma de su responsable"
    assert _a_la_vez(cliente, bases, ruta, firma, firma_requerida) == [409] * COPIAS

    tomar = _formulario(cliente, bases[0], ids["tomar"], "version")
    assert _a_la_vez(cliente, bases, f"/solicitudes/{ids['tomar']}/tomar", tomar) == [
        302,
        *[409] * (COPIAS - 1),
    ]
    comentar = _formulario(cliente, bases[0], ids["comentar"], "nonce")
    comentar["texto"] = "Un comentario enviado con doble clic."
    assert _a_la_vez(cliente, bases, f"/solicitudes/{ids['comentar']}/comentar", comentar) == [
        302,
        *[409] * (COPIAS - 1),
    ]

    leido = _leer(env, ids)
    assert (leido["avanzar"]["estado"], leido["avanzar"]["etapa"]) == ("en_tramite", 2)
    assert leido["avanzar"]["eventos"] == ["radicada", "avanzada"]
    assert (leido["firma"]["estado"], leido["firma"]["etapa"]) == ("en_tramite", 2)
    assert leido["firma"]["eventos"] == ["radicada", "avanzada"]
    assert leido["tomar"]["eventos"] == ["radicada", "asignada"]
    assert leido["comentar"]["comentarios"] == 1
