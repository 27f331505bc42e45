"""Reads of the public brand, served from the shared cache so unchanged answers cost no query."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.urls import get_script_prefix, reverse

from apps.marca.models import (
    CAMPOS_CONTENIDO,
    CLAVE_PUBLICA,
    DEFAULTS,
    ImagenMarca,
    Marca,
    Slot,
)
from apps.marca.serializers import Marca as MarcaSalida
from hub.administracion import gramatica
from hub.cache.versionado import guardar_versionado, leer_versionado

logger = logging.getLogger(__name__)

# One instance: shaping a dict reads its fields and keeps no state (no copy of them per call).
SALIDA = MarcaSalida()
TTL_PUBLICA = 3600  # also invalidated on every save; the TTL only bounds a missed invalidation
TTL_IMAGEN = 24 * 3600  # keyed by the image's digest: an entry can never be stale
LARGO_VERSION = 16  # hex characters of SHA-256 (64 bits)
SLOTS = tuple(Slot.values)


@dataclass(frozen=True)
class ImagenInfo:
    """What is known of an image without its bytes."""

    slot: str
    tipo: str
    sha256: str

    @property
    def etag(self) -> str:
        return f'"{self.sha256[:LARGO_VERSION]}"'


@dataclass(frozen=True)
class MarcaPublica:
    """The brand as published: interface fields (without addresses), version and image digests."""

    datos: dict[str, Any]
    version: str
    imagenes: dict[str, ImagenInfo]
    # For the staff pages, never in GET /marca: the help desk and how to name the organization.
    personal: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def etag(self) -> str:
        """The strong ETag: the version between double quotes."""
        return f'"{self.version}"'


def _leer_cache(clave: str) -> Any:
    try:
        return cache.get(clave)
    except Exception:  # a dead cache must not stop public reads
        logger.warning("cache no disponible al leer %s", clave)
        return None


def _guardar_cache(clave: str, valor: Any, ttl: int) -> None:
    try:
        cache.set(clave, valor, ttl)
    except Exception:
        logger.warning("cache no disponible al guardar %s", clave)


def calcular_version(contenido: dict[str, Any], imagenes: dict[str, tuple[str, str]]) -> str:
    """Fingerprint of every published field and every image's format and digest."""
    canonico = json.dumps(
        {"contenido": contenido, "imagenes": imagenes},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonico.encode("utf-8")).hexdigest()[:LARGO_VERSION]


def _nulo(valor: str) -> str | None:
    return valor or None


def construir_publica() -> dict[str, Any]:
    """The cacheable brand computed from the database, without touching the brand cache."""
    marca = Marca.fila()
    contenido = {campo: getattr(marca, campo) for campo in CAMPOS_CONTENIDO}
    imagenes = {
        slot: (tipo, sha)
        for slot, tipo, sha in ImagenMarca.objects.values_list("slot", "tipo", "sha256")
    }
    version = calcular_version(contenido, imagenes)
    es_default = not imagenes and all(contenido[c] == DEFAULTS[c] for c in CAMPOS_CONTENIDO)
    datos = SALIDA.to_representation(
        {
            "modo": marca.modo,
            "nombre": marca.nombre,
            "tagline": _nulo(marca.tagline),
            "nombre_entidad": _nulo(marca.nombre_entidad),
            "color_primario": marca.color_primario,
            "color_acento": marca.color_acento,
            "logo_url": None,
            "isotipo_url": None,
            "favicon_url": None,
            "logo_tipo": imagenes.get("logo", (None,))[0],
            "isotipo_tipo": imagenes.get("isotipo", (None,))[0],
            "favicon_tipo": imagenes.get("favicon", (None,))[0],
            "login_titulo": marca.login_titulo,
            "login_bullets": list(marca.login_bullets or []),
            "contacto_correo": _nulo(marca.contacto_correo),
            "contacto_sitio": _nulo(marca.contacto_sitio),
            "con_tecnologia_hub": marca.con_tecnologia_hub,
            "es_default": es_default,
            "version": version,
        }
    )
    entidad = marca.nombre_entidad or marca.nombre
    personal = {
        "mesa_ayuda_correo": marca.mesa_ayuda_correo,
        "de_entidad": gramatica.de_entidad(entidad, marca.articulo_entidad),
    }
    return {"datos": dict(datos), "version": version, "imagenes": imagenes, "personal": personal}


def marca_publica() -> MarcaPublica:
    """The current brand: from the shared cache, or built once and cached until it changes."""
    # Versioned: a brand built from the database just before another host's change commits
    # is stored under the generation that change replaces, so no host ever serves it.
    guardada, generacion = leer_versionado(CLAVE_PUBLICA)
    if not isinstance(guardada, dict) or "personal" not in guardada:
        # (An entry cached before the staff's fields existed is rebuilt once.)
        guardada = construir_publica()
        guardar_versionado(CLAVE_PUBLICA, guardada, generacion, TTL_PUBLICA)
    return MarcaPublica(
        datos=guardada["datos"],
        version=guardada["version"],
        imagenes={
            slot: ImagenInfo(slot=slot, tipo=tipo, sha256=sha)
            for slot, (tipo, sha) in guardada["imagenes"].items()
        },
        personal=guardada["personal"],
    )


@functools.lru_cache(maxsize=64)
def _ruta_imagen(slot: str, prefijo: str) -> str:
    # reverse() walks the URLconf: once per slot and script prefix is enough.
    return reverse("marca:archivo", kwargs={"slot": slot})


def url_imagen(request: HttpRequest | None, slot: str, version: str) -> str:
    """Absolute address of an image (relative when there is no request), with ?v=<version>."""
    ruta = f"{_ruta_imagen(slot, get_script_prefix())}?v={version}"
    return request.build_absolute_uri(ruta) if request is not None else ruta


def _origen(request: HttpRequest | None) -> str:
    """The scheme and host once, for every image (build_absolute_uri of "/" without its slash).

    Empty, so the addresses stay relative, without a request or for a Host outside ALLOWED_HOSTS
    (the branded 400 page of that very error must not name, nor fail on, that host).
    """
    if request is None:
        return ""
    try:
        return request.build_absolute_uri("/")[:-1]
    except DisallowedHost:
        return ""


def datos_marca(request: HttpRequest | None, publica: MarcaPublica | None = None) -> dict:
    """The interface's `data` of GET /marca: the cached fields plus the image addresses."""
    publica = publica or marca_publica()
    datos = dict(publica.datos)
    datos["login_bullets"] = list(datos["login_bullets"])
    origen = _origen(request)
    prefijo = get_script_prefix()
    for slot in publica.imagenes:
        datos[f"{slot}_url"] = f"{origen}{_ruta_imagen(slot, prefijo)}?v={publica.version}"
    return datos


def info_imagen(slot: str, publica: MarcaPublica | None = None) -> ImagenInfo | None:
    """Format and digest of the image in a slot; None for an empty or unknown slot."""
    publica = publica or marca_publica()
    return publica.imagenes.get(slot)


def bytes_imagen(info: ImagenInfo) -> tuple[bytes, ImagenInfo] | None:
    """The image's bytes, from the cache (keyed by digest) or the database."""
    datos = _leer_cache(f"marca:imagen:{info.sha256}")
    if isinstance(datos, bytes):
        return datos, info
    fila = (
        ImagenMarca.objects.filter(slot=info.slot)
        .values_list("contenido", "tipo", "sha256")
        .first()
    )
    if fila is None:  # removed since the brand was cached
        return None
    datos, actual = bytes(fila[0]), ImagenInfo(slot=info.slot, tipo=fila[1], sha256=fila[2])
    _guardar_cache(f"marca:imagen:{actual.sha256}", datos, TTL_IMAGEN)
    return datos, actual
