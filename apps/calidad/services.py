"""Writes on quality documents: drafts, publication of a version, withdrawal."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from apps.calidad.models import Documento, Proceso
from hub.busqueda.texto import limpiar


class OperacionNoPermitida(ValueError):
    """The document is not in a state that allows the operation."""


def _texto(valor: str, campo: str) -> str:
    limpio = limpiar(valor).strip()
    if not limpio:
        raise ValueError(f"{campo} no puede estar vacío.")
    return limpio


def crear_documento(
    *,
    titulo: str,
    codigo_publicado: str,
    tipo: str,
    proceso: Proceso,
    version: str = "1",
    temas: str = "",
) -> Documento:
    """A draft of a new document (a new `uid`)."""
    if tipo not in Documento.Tipo.values:
        raise ValueError(f"Tipo de documento desconocido: {tipo}.")
    with transaction.atomic():
        return Documento.objects.create(
            titulo=_texto(titulo, "El título"),
            codigo_publicado=_texto(codigo_publicado, "El código").upper(),
            tipo=tipo,
            proceso=proceso,
            version=_texto(version, "La versión"),
            temas=limpiar(temas).strip(),
        )


def _siguiente_version(version: str) -> str:
    return str(int(version) + 1) if version.isdigit() else f"{version}.1"


def crear_borrador(
    *,
    documento: Documento,
    version: str | None = None,
    titulo: str | None = None,
    codigo_publicado: str | None = None,
    temas: str | None = None,
) -> Documento:
    """A draft of the next version of `documento`'s family, copying what is not given."""
    with transaction.atomic():
        nueva_version = _texto(version, "La versión") if version else None
        if nueva_version is None:
            nueva_version = _siguiente_version(documento.version)
        if Documento.objects.filter(uid=documento.uid, version=nueva_version).exists():
            raise OperacionNoPermitida(f"La versión {nueva_version} ya existe.")
        return Documento.objects.create(
            uid=documento.uid,
            titulo=_texto(titulo, "El título") if titulo is not None else documento.titulo,
            codigo_publicado=(
                _texto(codigo_publicado, "El código").upper()
                if codigo_publicado is not None
                else documento.codigo_publicado
            ),
            codigos_anteriores=list(documento.codigos_anteriores or []),
            tipo=documento.tipo,
            proceso_id=documento.proceso_id,
            version=nueva_version,
            temas=limpiar(temas).strip() if temas is not None else documento.temas,
        )


def publicar_version(
    *, borrador: Documento, fecha_publicacion: datetime.date | None = None
) -> Documento:
    """Publish a draft: the current version becomes obsolete and a changed code is kept as old.

    Every version of the document is locked first, so two publications of the same document
    cannot both succeed.
    """
    with transaction.atomic():
        familia = list(
            Documento.objects.select_for_update().filter(uid=borrador.uid).order_by("id")
        )
        actual = next((d for d in familia if d.pk == borrador.pk), None)
        if actual is None or actual.estado != Documento.Estado.BORRADOR:
            raise OperacionNoPermitida("Solo se publica una versión en borrador.")
        otro = Documento.objects.vigentes().filter(codigo_publicado=actual.codigo_publicado)
        if otro.exclude(uid=actual.uid).exists():
            raise OperacionNoPermitida(
                f"El código {actual.codigo_publicado} ya lo usa otro documento vigente."
            )
        vigente = next((d for d in familia if d.estado == Documento.Estado.PUBLICADO), None)
        anteriores = list(actual.codigos_anteriores or [])
        if vigente is not None:
            anteriores.extend(vigente.codigos_anteriores or [])
            anteriores.append(vigente.codigo_publicado)
            vigente.estado = Documento.Estado.OBSOLETO
            vigente.save(update_fields=["estado", "actualizado_en"])
        # Old codes keep finding the document; the current code is never listed as old.
        unicos: list[str] = []
        for codigo in anteriores:
            if codigo != actual.codigo_publicado and codigo not in unicos:
                unicos.append(codigo)
        actual.codigos_anteriores = unicos
        actual.estado = Documento.Estado.PUBLICADO
        actual.fecha_publicacion = fecha_publicacion or timezone.localdate()
        actual.save(
            update_fields=["estado", "fecha_publicacion", "codigos_anteriores", "actualizado_en"]
        )
        borrador.refresh_from_db()
        return actual


def retirar(*, documento: Documento) -> Documento:
    """Withdraw a published document without replacement: it becomes obsolete."""
    with transaction.atomic():
        actual = Documento.objects.select_for_update().get(pk=documento.pk)
        if actual.estado != Documento.Estado.PUBLICADO:
            raise OperacionNoPermitida("Solo se retira una versión publicada.")
        actual.estado = Documento.Estado.OBSOLETO
        actual.save(update_fields=["estado", "actualizado_en"])
        return actual
