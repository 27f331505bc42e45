"""What CDP and RP share: the kind of a document, expedition and movements, written once.

Balances are changed only in these services and only under row locks, always taken in the order
Asignacion -> Cdp -> Rp -> movement (a PAA line is only updated last), so concurrent operations
queue instead of deadlocking, and two RPs racing for the last pesos of a CDP can never both win.
`cdp.py` and `rp.py` say what differs between the two kinds.
"""

from __future__ import annotations

import abc
import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Required, TypedDict

from django.db import IntegrityError, models, transaction
from django.db.models import Max
from django.utils import timezone

from apps.presupuesto.estados import EstadoMovimiento
from apps.presupuesto.models import Asignacion, Cdp, Rp
from apps.presupuesto.models.documentos import Movimiento
from apps.presupuesto.services import validacion
from apps.presupuesto.services.errores import ErrorPresupuesto
from apps.presupuesto.services.transiciones import transicion

Documento = Cdp | Rp

# The movement types both kinds have.
ADICION = "adicion"
REDUCCION = "reduccion"
ANULACION = "anulacion"
# How each movement type changes its document's current value (annulment: all of it).
_SIGNO = {ADICION: 1, REDUCCION: -1, ANULACION: -1}


@dataclass
class Filas:
    """The rows one operation on a document reads and changes (locked when it writes)."""

    documento: Documento
    cdp: Cdp  # the document itself, or the RP's CDP
    asignacion: Asignacion | None = None  # locked only when a CDP may grow


class ClaseDocumento(abc.ABC):
    """One kind of budget document (CDP or RP): its models, its rules and its balance moves."""

    modelo: type[Cdp] | type[Rp]
    movimiento: type[Movimiento]
    tipos: type[models.TextChoices]  # the movement types
    transiciones: dict[str, tuple[frozenset[str], str]]
    sigla: str
    con_movimientos: frozenset[str]  # states in which movements may be registered
    piso: str  # what a reduction may not go under: comprometido (CDP), obligado (RP)
    campos_saldo: tuple[str, ...]  # saved whenever the balances change
    campos_del_valor: tuple[str, ...]  # all equal to the value while it is a request

    @property
    def etiqueta(self) -> str:
        return f"el {self.sigla}"

    @abc.abstractmethod
    def bloquear(self, documento: Documento, *, crece: bool) -> Filas:
        """Lock, in the global order, the rows an operation changes (`crece`: it may add value)."""

    @abc.abstractmethod
    def leer(self, documento: Documento) -> Filas:
        """The same rows without locks (for a check that writes nothing)."""

    @abc.abstractmethod
    def verificar_solicitud(self, documento: Documento) -> None:
        """Early check of a request's value (the binding one runs, locked, at expedition)."""

    @abc.abstractmethod
    def reservar(self, filas: Filas) -> None:
        """At expedition: check that the value still fits, and count it where it counts."""

    @abc.abstractmethod
    def comprobar(self, filas: Filas, tipo: str, valor: Decimal) -> None:
        """The checks of the movement types other than a reduction."""

    @abc.abstractmethod
    def cuadrar(self, documento: Documento) -> None:
        """Derived balance and automatic state from the stored amounts."""

    @abc.abstractmethod
    def trasladar(self, filas: Filas, movimiento: Movimiento, cambio: Decimal) -> None:
        """What else an applied movement changes besides its document's current value."""

    @abc.abstractmethod
    def expedido(self, documento: Documento) -> None:
        """What else an expedition changes, after the document is saved."""

    def validar(self, filas: Filas, tipo: str, valor: Decimal) -> None:
        """Raise unless a movement of `tipo` and `valor` may be registered on the document now."""
        documento = filas.documento
        if documento.estado not in self.con_movimientos:
            raise ErrorPresupuesto(
                f"Solo se registran movimientos sobre un {self.sigla} expedido.",
                code="transicion_invalida",
            )
        if tipo != REDUCCION:
            self.comprobar(filas, tipo, valor)
            return
        piso = getattr(documento, self.piso)
        nuevo = documento.valor_actual - valor
        if nuevo < piso:
            raise ErrorPresupuesto(
                {"valor": [f"El {self.sigla} quedaría por debajo de lo {self.piso} ({piso})."]},
                code="saldo_insuficiente",
            )
        if nuevo <= 0:
            raise ErrorPresupuesto(
                {"valor": [f"Para dejar el {self.sigla} en cero, anúlelo."]},
                code="saldo_insuficiente",
            )

    def aplicar(self, filas: Filas, movimiento: Movimiento) -> None:
        """Apply a checked movement to the locked rows and mark it applied."""
        documento = filas.documento
        if movimiento.tipo == ANULACION:
            movimiento.valor = documento.valor_actual
            documento.estado = self.modelo.Estado.ANULADO
            documento.motivo_anulacion = movimiento.descripcion
        cambio = _SIGNO.get(movimiento.tipo, 0) * movimiento.valor
        documento.valor_actual += cambio
        self.trasladar(filas, movimiento, cambio)
        self.cuadrar(documento)
        documento.save(update_fields=[*self.campos_saldo, "motivo_anulacion"])
        movimiento.estado = EstadoMovimiento.APLICADO
        movimiento.save(update_fields=["estado", "valor"])


class DatosExpedicion(TypedDict, total=False):
    """The keyword arguments of expedir_cdp and expedir_rp besides the document."""

    numero_externo: str | None
    fecha_expedicion: datetime.date | None
    usuario: object


def expedir(
    clase: ClaseDocumento,
    *,
    documento: Documento,
    numero_externo: str | None = None,
    fecha_expedicion: datetime.date | None = None,
    usuario=None,
) -> Documento:
    """Issue a requested document of `clase` (see expedir_cdp and expedir_rp)."""
    externo = validacion.numero_externo(numero_externo)
    fecha = validacion.fecha(fecha_expedicion, "fecha_expedicion") or timezone.localdate()
    with transaction.atomic():
        filas = clase.bloquear(documento, crece=True)
        actual = filas.documento
        transicion(clase.transiciones, "expedir", actual.estado, clase.etiqueta)
        clase.reservar(filas)
        actual.estado = clase.modelo.Estado.EXPEDIDO
        actual.estado_expedicion = None
        actual.numero_externo = externo or actual.numero_externo
        actual.fecha_expedicion = fecha
        actual.expedido_por = usuario
        clase.cuadrar(actual)
        _guardar_con_externo(
            actual,
            [
                "estado_expedicion",
                "numero_externo",
                "fecha_expedicion",
                "expedido_por",
                *clase.campos_saldo,
            ],
        )
        clase.expedido(actual)
    return actual


class DatosMovimiento(TypedDict, total=False):
    """The keyword arguments of registrar_movimiento_cdp and registrar_movimiento_rp."""

    tipo: Required[str]
    descripcion: Required[str]
    valor: Decimal | str | int | None
    fecha: datetime.date | None
    numero_radicado: str | None
    aplicar: bool
    usuario: object


def registrar_movimiento(
    clase: ClaseDocumento,
    *,
    documento: Documento,
    tipo: str,
    descripcion: str,
    valor=None,
    fecha: datetime.date | None = None,
    numero_radicado: str | None = None,
    aplicar: bool = True,
    usuario=None,
) -> Movimiento:
    """A movement of an issued document; applied now unless `aplicar=False`.

    An annulment takes the document's whole current value (`valor` is ignored).
    """
    if tipo not in clase.tipos.values:
        raise ErrorPresupuesto({"tipo": ["Tipo de movimiento desconocido."]})
    descripcion = validacion.texto(descripcion, "descripcion", maximo=2000)
    anulacion = tipo == ANULACION
    importe = None if anulacion else validacion.valor(valor)
    fecha = validacion.fecha(fecha, "fecha") or timezone.localdate()
    radicado = validacion.texto(numero_radicado, "numero_radicado", maximo=60, vacio=True) or None
    with transaction.atomic():
        filas = clase.bloquear(documento, crece=tipo == ADICION)
        actual = filas.documento
        if anulacion:
            importe = actual.valor_actual
        clase.validar(filas, tipo, importe)
        movimiento = clase.movimiento.objects.create(
            **{clase.movimiento.campo_documento: actual},
            numero=_siguiente_movimiento(actual.movimientos.all()),
            tipo=tipo,
            valor=importe,
            fecha=fecha,
            descripcion=descripcion,
            numero_radicado=radicado,
            registrado_por=usuario,
        )
        if aplicar:
            clase.aplicar(filas, movimiento)
    return movimiento


def anular(clase: ClaseDocumento, *, documento: Documento, motivo: str, usuario) -> Documento:
    """Annul an issued document through an applied annulment movement."""
    registrar_movimiento(
        clase, documento=documento, tipo=ANULACION, descripcion=motivo, usuario=usuario
    )
    return clase.modelo.objects.get(pk=documento.pk)


def _siguiente_movimiento(qs: models.QuerySet) -> int:
    return (qs.aggregate(ultimo=Max("numero"))["ultimo"] or 0) + 1


def _guardar_con_externo(documento: Documento, campos: list[str]) -> None:
    """Save; a number the financial system already gave in this vigencia is a clear error."""
    if documento.numero_externo is not None:
        repetido = (
            type(documento)
            .objects.filter(
                vigencia_id=documento.vigencia_id, numero_externo=documento.numero_externo
            )
            .exclude(pk=documento.pk)
            .exists()
        )
        if repetido:
            raise ErrorPresupuesto(
                {"numero_externo": ["Ya existe en la vigencia."]}, code="numero_duplicado"
            )
    try:
        with transaction.atomic():
            documento.save(update_fields=campos)
    except IntegrityError:
        raise ErrorPresupuesto(
            {"numero_externo": ["Ya existe en la vigencia."]}, code="numero_duplicado"
        ) from None
