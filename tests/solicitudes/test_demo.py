"""Demo data: every state, overdue and due-soon tasks for the sample people, safe to rerun."""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import timezone

from apps.cuentas import demo as demo_cuentas
from apps.solicitudes import demo, selectors
from apps.solicitudes.demo_masivo import cargar_masivo
from apps.solicitudes.models import Consecutivo, Estado, Solicitud, Tarea
from hub.operacion.demo import ContextoDemo

pytestmark = pytest.mark.django_db


@pytest.fixture
def ctx(db) -> ContextoDemo:
    contexto = ContextoDemo(escala=1)
    demo_cuentas.cargar(contexto)
    demo.cargar(contexto)
    return contexto


def test_the_demo_has_requests_in_every_state_and_about_a_thousand_per_unit(ctx):
    estados = Counter(Solicitud.objects.values_list("estado", flat=True))
    assert set(estados) == {e.value for e in Estado}
    assert Solicitud.objects.count() == 1000
    for clave in ("borrador", "radicado", "en_tramite", "aprobado", "rechazado", "devuelto"):
        assert ctx.objetos["solicitudes"][clave].estado == clave
    assert ctx.objetos["solicitudes"]["anulado"].estado == "anulado"
    assert ctx.objetos["solicitudes"]["requiere_atencion"].estado == "requiere_atencion"


def test_samples_for_visibility_and_the_public_lookup(ctx):
    usuarios = ctx.objetos["usuarios"]
    muestras = ctx.objetos["solicitudes"]
    ajena = muestras["de_completo_ajena"]
    assert selectors.puede_ver(usuarios["completo"], ajena) is True
    assert selectors.puede_ver(usuarios["limitado"], ajena) is False
    assert selectors.puede_ver(usuarios["limitado"], muestras["de_limitado"]) is True
    publica = muestras["publica"]
    assert publica.solicitante is None and publica.correo_solicitante
    assert ctx.salida["solicitud_publica"] == {
        "numero_radicado": publica.numero_radicado,
        "correo_solicitante": publica.correo_solicitante,
    }
    encontrada = selectors.solicitud_publica(
        ctx.salida["solicitud_publica"]["numero_radicado"],
        ctx.salida["solicitud_publica"]["correo_solicitante"],
    )
    assert encontrada == publica
    assert muestras["hija"].radicado_padre == muestras["en_tramite"].numero_radicado
    assert muestras["mesa_ayuda"].numero_radicado.startswith("MDA-")
    assert muestras["mesa_ayuda"].tipo.es_mesa_ayuda is True


@pytest.mark.parametrize(
    ("usuario", "alcance"),
    [("revisor", "mias"), ("jefe_oti", "rol"), ("completo", "mias")],
)
def test_sample_people_have_overdue_and_due_soon_tasks(ctx, usuario, alcance):
    persona = ctx.objetos["usuarios"][usuario]
    conteo = selectors.contar_bandeja(persona, alcance, ahora=timezone.now())
    assert conteo["vencidas"] >= 1
    assert conteo["por_vencer"] >= 1


def test_comments_history_and_outside_filers_exist(ctx):
    muestras = ctx.objetos["solicitudes"]
    assert muestras["de_limitado"].comentarios.exists()
    assert muestras["publica"].eventos.count() >= 2
    assert Solicitud.objects.filter(solicitante__isnull=True).exclude(correo_solicitante="").count()


def test_numbers_are_unique_and_without_gaps_per_prefix_and_year(ctx):
    numeros = list(
        Solicitud.objects.exclude(numero_radicado=None).values_list("numero_radicado", flat=True)
    )
    assert len(numeros) == len(set(numeros))
    por_serie = Counter(n.rsplit("-", 1)[0] for n in numeros)
    for c in Consecutivo.objects.all():
        serie = f"{c.prefijo}-{c.anio}"
        secuencias = sorted(int(n.rsplit("-", 1)[1]) for n in numeros if n.startswith(serie + "-"))
        assert secuencias == list(range(1, c.ultimo + 1))
        assert por_serie[serie] == c.ultimo


def _lo_radicado() -> tuple[int, int, list[str]]:
    """How many requests and tasks there are, and the filed numbers."""
    numeros = Solicitud.objects.exclude(numero_radicado=None).values_list(
        "numero_radicado", flat=True
    )
    return Solicitud.objects.count(), Tarea.objects.count(), sorted(numeros)


def test_running_the_demo_twice_duplicates_nothing(ctx):
    antes = _lo_radicado()
    otra = ContextoDemo(escala=1)
    demo_cuentas.cargar(otra)
    demo.cargar(otra)
    despues = _lo_radicado()
    assert despues == antes
    assert otra.salida["solicitud_publica"] == ctx.salida["solicitud_publica"]
    assert {k: s.pk for k, s in otra.objetos["solicitudes"].items()} == {
        k: s.pk for k, s in ctx.objetos["solicitudes"].items()
    }


def test_a_larger_scale_tops_up_to_the_new_target(ctx):
    assert cargar_masivo(ctx, objetivo=1500) == 500
    assert Solicitud.objects.count() == 1500
    assert cargar_masivo(ctx, objetivo=1500) == 0
