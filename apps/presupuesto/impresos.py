"""Signed documents on paper: what the print view and the PDF of a CDP, RP, PAA line or one of
their movements state, for whoever may see the document on its screen (else None: 404)."""

from __future__ import annotations

import base64
from typing import Any

from django.db.models import Model, QuerySet

from apps.firmas import qr
from apps.firmas.models import Firma
from apps.firmas.selectors import hora_local
from apps.marca import selectors as marca
from apps.marca.imagenes import CONTENT_TYPES
from apps.presupuesto.herramientas.formato import pesos
from apps.presupuesto.models import Cdp, LineaPaa, Rp
from apps.presupuesto.pantallas import ORDEN_FIRMAS, cdps_visibles, lineas_visibles, rps_visibles

# ?papel=carta prints on Letter; anything else (or nothing) on A4. The layout fits both.
PAPELES = {"a4": ("A4", "A4"), "carta": ("letter", "Carta")}
PAPEL_POR_DEFECTO = "a4"


def papel(valor: str | None) -> dict[str, str]:
    """The paper asked for in the query string: its key, CSS @page size and name."""
    clave = valor if valor in PAPELES else PAPEL_POR_DEFECTO
    tamano, nombre = PAPELES[clave]
    return {"clave": clave, "tamano": tamano, "nombre": nombre}


def pdf(html: str) -> bytes:
    """The PDF of a print view. Only data: URIs are fetched (the logo and the QR codes are
    inlined): rendering never reaches the network or the disk."""
    # Imported here: WeasyPrint loads Pango and takes ~1 s to import, a cost no process should
    # pay at start-up (workers, commands) for a page that is printed now and then.
    import weasyprint
    from weasyprint.urls import URLFetcher

    return weasyprint.HTML(
        string=html, url_fetcher=URLFetcher(allowed_protocols={"data"}, timeout=2)
    ).write_pdf()


def logo() -> str | None:
    """The brand's logo as a data: URI (the PDF fetches nothing), None when there is none."""
    info = marca.info_imagen("logo")
    encontrada = marca.bytes_imagen(info) if info is not None else None
    if encontrada is None:
        return None
    datos, actual = encontrada
    return f"data:{CONTENT_TYPES[actual.tipo]};base64,{base64.b64encode(datos).decode()}"


def _fecha(valor) -> str | None:
    return valor.strftime("%Y-%m-%d") if valor else None


def _firmas(firmas: QuerySet[Firma] | list[Firma]) -> list[dict[str, Any]]:
    """Each signature as printed: who, role, when, and the QR the admin's QR also encodes."""
    impresas = []
    for firma in firmas:
        impresas.append(
            {
                "firmante": firma.firmante,
                "rol": firma.rol,
                "firmado_en": hora_local(firma.firmado_en),
                "anulada": firma.anulada,
                "anulada_en": hora_local(firma.anulada_en) if firma.anulada_en else None,
                "url": firma.url_verificacion(),
                "codigo": str(firma.token),
                # 4 px modules plus the 4-module quiet zone a scanner needs around the code.
                "qr": qr.codigo_qr(firma).svg_data_uri(scale=4, border=4, omitsize=True),
            }
        )
    return impresas


def _filas(*filas: tuple[str, Any]) -> list[tuple[str, str]]:
    """(label, text) rows; a fact the document does not have is left out, never "—"."""
    return [(etiqueta, str(valor)) for etiqueta, valor in filas if valor not in (None, "")]


def _hoja(documento: Model, **campos: Any) -> dict[str, Any]:
    """What every printed document carries besides its own facts."""
    return {
        "documento": documento,
        "enlace": documento.enlace_impresion,
        "enlace_pdf": documento.enlace_pdf,
        # The screen the print view goes back to (a movement's is its document's).
        "volver": getattr(documento, "enlace", None) or documento.documento.enlace,
        "firmas": _firmas(documento.firmas.order_by(*ORDEN_FIRMAS)),
        **campos,
    }


def _area(area) -> str:
    return f"{area.nombre} ({area.sigla})"


def _cdp(cdp: Cdp) -> dict[str, Any]:
    return _hoja(
        cdp,
        titulo="Certificado de disponibilidad presupuestal (CDP)",
        numero=cdp.numero,
        estado=cdp.estado_visible,
        archivo=cdp.numero,
        datos=_filas(
            ("Vigencia", cdp.vigencia.anio),
            ("Fecha de expedición", _fecha(cdp.fecha_expedicion) or "Sin expedir"),
            ("Número en el sistema financiero", cdp.numero_externo),
            ("Radicado de origen", cdp.numero_radicado),
            ("Área", _area(cdp.area)),
            ("Dependencia", cdp.dependencia),
            ("Proyecto", f"{cdp.proyecto.codigo} · {cdp.proyecto.nombre}"),
            ("Línea del PAA", cdp.linea_paa and f"Línea {cdp.linea_paa.numero}"),
        ),
        valores=_filas(
            ("Valor inicial", pesos(cdp.valor_inicial)),
            ("Valor actual", pesos(cdp.valor_actual)),
            ("Comprometido en RP", pesos(cdp.comprometido)),
            ("Saldo disponible", pesos(cdp.saldo)),
        ),
        textos=_filas(("Objeto", cdp.objeto)),
    )


def _rp(rp: Rp) -> dict[str, Any]:
    # The beneficiary's identity document is personal data: never printed.
    return _hoja(
        rp,
        titulo="Registro presupuestal (RP)",
        numero=rp.numero,
        estado=rp.estado_visible,
        archivo=rp.numero,
        datos=_filas(
            ("Vigencia", rp.vigencia.anio),
            ("Fecha de expedición", _fecha(rp.fecha_expedicion) or "Sin expedir"),
            ("Número en el sistema financiero", rp.numero_externo),
            ("Radicado de origen", rp.numero_radicado),
            ("CDP", rp.cdp.numero),
            ("Área", _area(rp.cdp.area)),
            ("Beneficiario", rp.beneficiario),
            ("Fecha de inicio", _fecha(rp.fecha_inicio)),
            ("Fecha de terminación", _fecha(rp.fecha_fin)),
        ),
        valores=_filas(
            ("Valor inicial", pesos(rp.valor_inicial)),
            ("Valor actual", pesos(rp.valor_actual)),
            ("Obligado", pesos(rp.obligado)),
            ("Por obligar", pesos(rp.por_obligar)),
        ),
        textos=_filas(("Objeto", rp.objeto)),
    )


def _movimiento(movimiento, sigla: str, area) -> dict[str, Any]:
    documento = movimiento.documento
    return _hoja(
        movimiento,
        titulo=f"Movimiento de {sigla}: {movimiento.get_tipo_display().lower()}",
        numero=f"{documento.numero} · movimiento {movimiento.numero}",
        estado=movimiento.get_estado_display(),
        archivo=f"{documento.numero}-movimiento-{movimiento.numero}",
        datos=_filas(
            (sigla, documento.numero),
            ("Número del movimiento", movimiento.numero),
            ("Tipo", movimiento.get_tipo_display()),
            ("Fecha", _fecha(movimiento.fecha)),
            ("Radicado de origen", movimiento.numero_radicado),
            ("Área", _area(area)),
        ),
        valores=_filas(("Valor del movimiento", pesos(movimiento.valor))),
        textos=_filas(
            ("Descripción", movimiento.descripcion), (f"Objeto del {sigla}", documento.objeto)
        ),
    )


def _linea(fila: LineaPaa) -> dict[str, Any]:
    return _hoja(
        fila,
        titulo="Línea del Plan Anual de Adquisiciones (PAA)",
        numero=f"Línea {fila.numero} · PAA {fila.vigencia.anio}",
        estado=fila.estado_visible,
        archivo=f"PAA-{fila.vigencia.anio}-linea-{fila.numero}",
        datos=_filas(
            ("Vigencia", fila.vigencia.anio),
            ("Línea", fila.numero),
            ("Área", _area(fila.area)),
            ("Proyecto", f"{fila.proyecto.codigo} · {fila.proyecto.nombre}"),
            ("Actividad", fila.actividad),
            ("Modalidad de selección", fila.get_modalidad_display()),
            ("Mes estimado de inicio", fila.mes_inicio.strftime("%Y-%m")),
            ("Duración estimada", f"{fila.duracion_meses} mes(es)"),
        ),
        valores=_filas(("Valor estimado", pesos(fila.valor_estimado))),
        textos=_filas(("Objeto", fila.objeto)),
    )


def cdp(user, pk: int, numero: int | None = None) -> dict[str, Any] | None:
    """The printed CDP (or its movement `numero`), or None when `user` may not see the CDP."""
    documento = (
        cdps_visibles(user)
        .select_related("vigencia", "area", "proyecto", "linea_paa")
        .filter(pk=pk)
        .first()
    )
    if documento is None:
        return None
    if numero is None:
        return _cdp(documento)
    movimiento = documento.movimientos.filter(numero=numero).first()
    return _movimiento(movimiento, "CDP", documento.area) if movimiento else None


def rp(user, pk: int, numero: int | None = None) -> dict[str, Any] | None:
    """The printed RP (or its movement `numero`), or None when `user` may not see the RP."""
    documento = (
        rps_visibles(user).select_related("vigencia", "cdp", "cdp__area").filter(pk=pk).first()
    )
    if documento is None:
        return None
    if numero is None:
        return _rp(documento)
    movimiento = documento.movimientos.filter(numero=numero).first()
    return _movimiento(movimiento, "RP", documento.cdp.area) if movimiento else None


def linea(user, pk: int) -> dict[str, Any] | None:
    """The printed PAA line, or None when `user` may not see it."""
    fila = (
        lineas_visibles(user)
        .select_related("vigencia", "area", "proyecto", "actividad")
        .filter(pk=pk)
        .first()
    )
    return _linea(fila) if fila is not None else None
