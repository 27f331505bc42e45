"""Checks of what people write: text, e-mail, the form fields and the parent request."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from apps.solicitudes.errores import DatosInvalidos
from apps.solicitudes.models import CampoFormulario, Solicitud
from hub.busqueda.texto import limpiar

_NOMBRE_CAMPO = re.compile(r"^[a-z0-9_]{1,60}$")
MAX_VALOR_CAMPO = 10_000
MAX_COMENTARIO = 2000
MAX_MOTIVO = 2000

CampoEntrada = Mapping[str, Any]


def validar_texto(
    valor: Any, campo: str, *, minimo: int, maximo: int, requerido: bool = True
) -> str:
    """Cleaned text (invisible characters removed, trimmed) within bounds, or DatosInvalidos."""
    if valor is None:
        valor = ""
    if not isinstance(valor, str):
        raise DatosInvalidos("Datos inválidos.", campos={campo: ["Debe ser texto."]})
    texto = limpiar(valor).strip()
    if not texto and not requerido:
        return ""
    if len(texto) < minimo:
        raise DatosInvalidos(
            "Datos inválidos.", campos={campo: [f"Debe tener al menos {minimo} caracteres."]}
        )
    if len(texto) > maximo:
        raise DatosInvalidos(
            "Datos inválidos.", campos={campo: [f"Debe tener como máximo {maximo} caracteres."]}
        )
    return texto


def validar_correo(valor: Any, campo: str) -> str:
    """A cleaned e-mail address, or DatosInvalidos."""
    correo = validar_texto(valor, campo, minimo=3, maximo=150)
    try:
        validate_email(correo)
    except ValidationError:
        raise DatosInvalidos(
            "Datos inválidos.", campos={campo: ["Introduzca un correo electrónico válido."]}
        ) from None
    return correo


def validar_campos(
    campos: Iterable[CampoEntrada] | Mapping[str, Any] | None,
) -> list[CampoFormulario]:
    """Unsaved form fields from a list of {nombre, valor, etiqueta?, sensible?} or {nombre: valor}.

    Sensitivity is the explicit flag OR what the name/value suggest (identity documents, contact
    data): a caller forgetting the flag must not leak a document number into a summary.
    """
    if campos is None:
        return []
    if isinstance(campos, Mapping):
        campos = [{"nombre": k, "valor": v} for k, v in campos.items()]
    resultado: list[CampoFormulario] = []
    vistos: set[str] = set()
    for i, campo in enumerate(campos):
        if not isinstance(campo, Mapping):
            raise DatosInvalidos("Datos inválidos.", campos={f"campos.{i}": ["Campo inválido."]})
        nombre = str(campo.get("nombre") or "").strip().lower()
        if not _NOMBRE_CAMPO.match(nombre) or nombre in vistos:
            raise DatosInvalidos(
                "Datos inválidos.",
                campos={
                    f"campos.{i}.nombre": ["Nombre vacío, repetido o con caracteres no válidos."]
                },
            )
        vistos.add(nombre)
        valor = campo.get("valor")
        valor = "" if valor is None else str(valor)
        valor = validar_texto(
            valor, f"campos.{i}.valor", minimo=0, maximo=MAX_VALOR_CAMPO, requerido=False
        )
        etiqueta = validar_texto(
            campo.get("etiqueta") or nombre.replace("_", " ").capitalize(),
            f"campos.{i}.etiqueta",
            minimo=1,
            maximo=150,
        )
        sensible = bool(campo.get("sensible")) or CampoFormulario.parece_sensible(nombre, valor)
        resultado.append(
            CampoFormulario(
                orden=i, nombre=nombre, etiqueta=etiqueta, valor=valor, sensible=sensible
            )
        )
    return resultado


def validar_padre(padre: Solicitud | None) -> None:
    """A parent request must already have its number."""
    if padre is not None and not padre.numero_radicado:
        raise DatosInvalidos(
            "Datos inválidos.", campos={"padre": ["La solicitud padre debe estar radicada."]}
        )
