"""Writes to the brand: fields and images, validated by the model, inside one transaction."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from apps.marca.imagenes import validar_imagen
from apps.marca.models import CAMPOS_CONTENIDO, DEFAULTS, ImagenMarca, Marca, Slot


def _marca_bloqueada() -> Marca:
    marca, _ = Marca.objects.select_for_update().get_or_create(pk=1)
    return marca


def _slot_valido(slot: str) -> None:
    if slot not in Slot.values:
        raise ValidationError({"slot": [f"Espacio desconocido: use {', '.join(Slot.values)}."]})


@transaction.atomic
def actualizar_marca(*, cambios: Mapping[str, Any]) -> Marca:
    """Change some brand fields; everything is validated before anything is saved."""
    desconocidos = sorted(set(cambios) - set(CAMPOS_CONTENIDO))
    if desconocidos:
        raise ValidationError({c: ["Campo no permitido."] for c in desconocidos})
    marca = _marca_bloqueada()
    for campo, valor in cambios.items():
        setattr(marca, campo, valor)
    marca.full_clean()
    marca.save()
    return marca


@transaction.atomic
def guardar_imagen(*, slot: str, datos: bytes) -> ImagenMarca:
    """Store an image in a slot (type from its bytes, SVG cleaned); same bytes change nothing."""
    _slot_valido(slot)
    try:
        valida = validar_imagen(datos)
    except ValidationError as exc:
        raise ValidationError({slot: exc.messages}) from None
    _marca_bloqueada()  # serializes concurrent brand writes
    actual = ImagenMarca.objects.filter(slot=slot).first()
    if actual is not None and actual.sha256 == valida.sha256 and actual.tipo == valida.tipo:
        return actual
    imagen = actual or ImagenMarca(slot=slot)
    imagen.tipo = valida.tipo
    imagen.contenido = valida.contenido
    imagen.sha256 = valida.sha256
    imagen.tamano = len(valida.contenido)
    imagen.save()
    return imagen


@transaction.atomic
def quitar_imagen(*, slot: str) -> bool:
    """Empty a slot; True when there was an image."""
    _slot_valido(slot)
    _marca_bloqueada()
    imagen = ImagenMarca.objects.filter(slot=slot).first()
    if imagen is None:
        return False
    imagen.delete()
    return True


@transaction.atomic
def restaurar_marca(*, quitar_imagenes: bool = False) -> Marca:
    """Back to the hub's own brand (every field's default); the images too when asked."""
    marca = actualizar_marca(cambios={c: copy.deepcopy(v) for c, v in DEFAULTS.items()})
    if quitar_imagenes:
        for slot in Slot.values:
            quitar_imagen(slot=slot)
    return marca
