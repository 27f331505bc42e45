"""A person's own assistant activity ("Actividad del asistente", /cuentas/perfil/actividad/).

One source of truth: the audit rows read through `RegistroAuditoria.objects.de_la_persona`, and
the refusals that named the person (403, 429) through `RechazoAsistente.objects.de_la_persona`,
already counted per minute (apps.mcp.rechazos). Nobody reads another person's activity here;
the administrators' view of everyone's stays in the admin. A constant number of queries per page
whatever its rows: the connections' names come from two queries, never one per row.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.cache import cache
from django.db.models import Max
from django.utils import timezone

from apps.cuentas.models import User
from apps.mcp.etiquetas import ETIQUETAS, etiqueta
from apps.mcp.models import RechazoAsistente, RegistroAuditoria, TokenPersonal
from apps.mcp.rechazos import llave_cache
from hub.herramientas.registro import registro
from hub.http.enlaces import absoluta

logger = logging.getLogger(__name__)

POR_PAGINA = 25
# The newest refusal minutes shown (each row is already a minute's count).
MAX_RECHAZOS = 50
CONEXION = re.compile(r"^(app-\d{1,18}|token-[0-9A-Za-z_]{1,20})$")
ESTADOS_RECHAZO = {403: "Sin acceso", 429: "Límite de uso superado"}


def conexion_de_fila(fila: RegistroAuditoria) -> str:
    """The filter value of a row's connection: `app-<client id>` or `token-<prefix>`."""
    if fila.cliente_id is not None:
        return f"app-{fila.cliente_id}"
    if fila.token_prefijo:
        return f"token-{fila.token_prefijo}"
    return ""


def conexiones_de(usuario: User) -> dict[str, str]:
    """Every connection that acted (or may act) in the person's name, by filter value: their
    personal tokens and the OAuth applications of their audit rows (two queries)."""
    nombres: dict[str, str] = {}
    grupos = (
        RegistroAuditoria.objects.de_la_persona(usuario)
        .filter(cliente_id__isnull=False)
        .values_list("cliente_id", "cliente_nombre")
        .annotate(ultima=Max("creado"))
        .order_by("ultima")
    )
    for cliente_id, nombre, _ultima in grupos:  # a renamed client is listed by its latest name
        nombres[f"app-{cliente_id}"] = f"Aplicación «{nombre}»"
    for nombre, prefijo in TokenPersonal.objects.filter(usuario=usuario).values_list(
        "nombre", "prefijo"
    ):
        nombres[f"token-{prefijo}"] = f"Token «{nombre}» ({prefijo}…)"
    return nombres


def _resultados() -> list[tuple[str, str]]:
    codigos = sorted((c for c in ETIQUETAS if c != "ok"), key=etiqueta)
    return [
        ("", "Todos"),
        ("ok", "Correcta"),
        ("error", "Con error (cualquiera)"),
        *((c, etiqueta(c)) for c in codigos),
    ]


class FiltroActividad(forms.Form):
    """The filters of the page (GET): connection, tool, result and dates."""

    conexion = forms.ChoiceField(label="Conexión", required=False)
    herramienta = forms.ChoiceField(label="Herramienta", required=False)
    resultado = forms.ChoiceField(label="Resultado", required=False)
    desde = forms.DateField(
        label="Desde", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    hasta = forms.DateField(
        label="Hasta", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, conexiones: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        opciones = dict(conexiones)
        pedida = str(self.data.get("conexion") or "")
        if pedida not in opciones and CONEXION.match(pedida):
            # A link from the profile to a connection without activity yet: valid, and empty.
            opciones[pedida] = "Aplicación sin actividad" if pedida[:4] == "app-" else "Token"
        self.fields["conexion"].choices = [("", "Todas"), *sorted(opciones.items())]
        herramientas = sorted((h.nombre, f"{h.titulo} ({h.nombre})") for h in registro)
        self.fields["herramienta"].choices = [("", "Todas"), *herramientas]
        self.fields["resultado"].choices = _resultados()

    def clean(self) -> dict[str, Any]:
        datos = super().clean()
        desde, hasta = datos.get("desde"), datos.get("hasta")
        if desde and hasta and desde > hasta:
            self.add_error("hasta", "La fecha final es anterior a la inicial.")
        return datos

    @property
    def filtra_llamadas(self) -> bool:
        """A filter that refusals cannot answer (they name no connection, tool nor result)."""
        datos = getattr(self, "cleaned_data", {})
        return any(datos.get(c) for c in ("conexion", "herramienta", "resultado"))


def _inicio(fecha: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(fecha, dt.time.min))


def _rango(consulta, campo: str, datos: dict[str, Any]):
    if datos.get("desde"):
        consulta = consulta.filter(**{f"{campo}__gte": _inicio(datos["desde"])})
    if datos.get("hasta"):
        fin = _inicio(datos["hasta"] + dt.timedelta(days=1))
        consulta = consulta.filter(**{f"{campo}__lt": fin})
    return consulta


def llamadas(usuario: User, datos: dict[str, Any]):
    """The person's calls that match the filters, newest first (a queryset: paged or streamed)."""
    consulta = RegistroAuditoria.objects.de_la_persona(usuario)
    conexion = datos.get("conexion") or ""
    if conexion.startswith("app-"):
        consulta = consulta.filter(cliente_id=int(conexion[4:]))
    elif conexion.startswith("token-"):
        consulta = consulta.filter(cliente_id__isnull=True, token_prefijo=conexion[6:])
    if datos.get("herramienta"):
        consulta = consulta.filter(herramienta=datos["herramienta"])
    resultado = datos.get("resultado") or ""
    if resultado == "error":
        consulta = consulta.exclude(resultado="ok")
    elif resultado:
        consulta = consulta.filter(resultado=resultado)
    return _rango(consulta, "creado", datos).order_by("-creado", "-id")


@dataclass(frozen=True)
class Fila:
    """One call as the person reads it."""

    fecha: dt.datetime
    conexion: str
    conexion_valor: str
    herramienta: str
    titulo: str
    correcta: bool
    resultado: str
    codigo: str
    objeto: str
    enlace: str

    @property
    def url(self) -> str:
        return absoluta(self.enlace) if self.enlace else ""


def _nombre_conexion(fila: RegistroAuditoria, nombres: dict[str, str]) -> str:
    valor = conexion_de_fila(fila)
    if fila.cliente_id is not None:
        return f"Aplicación «{fila.cliente_nombre}»"  # its name as it was at the call
    return nombres.get(valor) or (f"Token {fila.token_prefijo}…" if valor else "—")


def legible(fila: RegistroAuditoria, nombres: dict[str, str]) -> Fila:
    """The row in words: the connection's name, the tool's title, the result in Spanish."""
    herramienta = registro.obtener(fila.herramienta)
    correcta = fila.resultado == "ok"
    resultado = etiqueta(fila.resultado)
    objeto = fila.objeto or {}
    if (
        correcta
        and herramienta is not None
        and herramienta.escritura
        and not (fila.argumentos or {}).get("confirmar")
    ):
        resultado = "Vista previa (no escribió nada)"
    return Fila(
        fecha=fila.creado,
        conexion=_nombre_conexion(fila, nombres),
        conexion_valor=conexion_de_fila(fila),
        herramienta=fila.herramienta,
        titulo=herramienta.titulo if herramienta is not None else fila.herramienta,
        correcta=correcta,
        resultado=resultado,
        codigo=fila.resultado,
        objeto=str(objeto.get("texto") or ""),
        enlace=str(objeto.get("enlace") or ""),
    )


@dataclass(frozen=True)
class MinutoRechazado:
    minuto: dt.datetime
    estado: int
    motivo: str
    veces: int


def rechazos(usuario: User, datos: dict[str, Any]) -> list[MinutoRechazado]:
    """The newest minutes of refused calls that named the person, with their counts (one query,
    and one cache read for the minutes still counting there)."""
    filas = list(
        _rango(RechazoAsistente.objects.de_la_persona(usuario), "minuto", datos).order_by(
            "-minuto", "estado", "codigo"
        )[:MAX_RECHAZOS]
    )
    pendientes = [f for f in filas if f.pendiente]
    conteos: dict[str, Any] = {}
    if pendientes:
        try:
            conteos = cache.get_many([llave_cache(f) for f in pendientes])
        except Exception:  # the stored count is shown; the page never fails on the cache
            logger.warning("caché no disponible: se muestran los conteos guardados")
    resultado = []
    for fila in filas:
        conteo = conteos.get(llave_cache(fila)) if fila.pendiente else None
        veces = max(fila.veces, conteo) if isinstance(conteo, int) else fila.veces
        estado, codigo = ESTADOS_RECHAZO.get(fila.estado, str(fila.estado)), etiqueta(fila.codigo)
        motivo = estado if codigo == estado else f"{estado}: {codigo}"
        resultado.append(MinutoRechazado(fila.minuto, fila.estado, motivo, veces))
    return resultado


COLUMNAS_CSV = (
    "Fecha",
    "Conexión",
    "Herramienta",
    "Resultado",
    "Código",
    "Qué escribió",
    "Enlace",
)


def filas_csv(consulta, nombres: dict[str, str]) -> Iterator[tuple[str, ...]]:
    """The filtered calls as CSV rows (local time with seconds), read in batches."""
    for fila in consulta.iterator(chunk_size=2000):
        vista = legible(fila, nombres)
        yield (
            timezone.localtime(vista.fecha).strftime("%Y-%m-%d %H:%M:%S"),
            vista.conexion,
            vista.herramienta,
            vista.resultado,
            vista.codigo,
            vista.objeto,
            vista.url,
        )


def pagina_de_filas(filas: Iterable[RegistroAuditoria], nombres: dict[str, str]) -> list[Fila]:
    return [legible(f, nombres) for f in filas]
