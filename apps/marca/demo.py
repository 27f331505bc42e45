"""Demo: the brand of a plausible district institute, with real SVG and PNG images."""

from __future__ import annotations

import io

from django.db import transaction
from PIL import Image, ImageDraw

from apps.marca import selectors, services
from apps.marca.models import Modo
from hub.operacion.demo import ContextoDemo

PRIMARIO = "#0B4F6C"
ACENTO = "#F2A541"

MARCA_DEMO = {
    "modo": Modo.COMARCA.value,
    "nombre": "IDGP en línea",
    "tagline": "Trámites, presupuesto y calidad en un solo lugar",
    "nombre_entidad": "Instituto Distrital de Gestión Pública",
    "color_primario": PRIMARIO,
    "color_acento": ACENTO,
    "login_titulo": "Ingreso para servidores y contratistas",
    "login_bullets": [
        "Radique y siga sus solicitudes sin papel.",
        "Consulte CDP, RP y el Plan Anual de Adquisiciones de su área.",
        "Firme documentos y verifique firmas con el código QR.",
        "Pregunte al asistente con sus mismos permisos.",
    ],
    "contacto_correo": "atencionciudadana@idgp.gov.co",
    "contacto_sitio": "https://www.idgp.gov.co",
}

# The isotype: a public building (pediment, three columns) on an accent base.
_EDIFICIO = (
    f'<rect width="64" height="64" rx="14" fill="{PRIMARIO}"/>'
    '<path d="M12 24 32 11 52 24Z" fill="#FFFFFF"/>'
    '<rect x="16" y="28" width="7" height="18" fill="#FFFFFF"/>'
    '<rect x="28.5" y="28" width="7" height="18" fill="#FFFFFF"/>'
    '<rect x="41" y="28" width="7" height="18" fill="#FFFFFF"/>'
    f'<rect x="12" y="49" width="40" height="5" rx="1" fill="{ACENTO}"/>'
)

ISOTIPO_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" '
    'role="img" aria-label="IDGP">'
    f"<title>IDGP</title>{_EDIFICIO}</svg>"
)

LOGO_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 336 72" width="336" height="72" '
    'role="img" aria-label="IDGP · Instituto Distrital de Gestión Pública">'
    "<title>IDGP · Instituto Distrital de Gestión Pública</title>"
    f'<g transform="translate(4 4)">{_EDIFICIO}</g>'
    f'<text x="80" y="38" fill="{PRIMARIO}" font-family="system-ui, Segoe UI, Roboto, Arial, '
    'sans-serif" font-size="30" font-weight="700" letter-spacing="1">IDGP</text>'
    '<text x="80" y="62" fill="#3D4A55" font-family="system-ui, Segoe UI, Roboto, Arial, '
    'sans-serif" font-size="13">Instituto Distrital de Gestión Pública</text>'
    f'<rect x="80" y="42" width="44" height="3" rx="1.5" fill="{ACENTO}"/>'
    "</svg>"
)


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def favicon_png() -> bytes:
    """The isotype drawn at 64×64 as a PNG (same bytes on every run)."""
    img = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    dibujo = ImageDraw.Draw(img)
    dibujo.rounded_rectangle((0, 0, 63, 63), radius=14, fill=_rgb(PRIMARIO))
    dibujo.polygon([(12, 24), (32, 11), (52, 24)], fill=(255, 255, 255))
    for x in (16, 28, 41):
        dibujo.rectangle((x, 28, x + 6, 45), fill=(255, 255, 255))
    dibujo.rectangle((12, 49, 51, 53), fill=_rgb(ACENTO))
    salida = io.BytesIO()
    img.save(salida, format="PNG", optimize=True)
    return salida.getvalue()


@transaction.atomic
def cargar(ctx: ContextoDemo) -> None:
    """The demo brand, only on a brand nobody customized yet: a later run (`make run` again)
    leaves what an administrator changed (colours, texts, images) as it is."""
    if selectors.construir_publica()["datos"]["es_default"]:
        services.actualizar_marca(cambios=MARCA_DEMO)
        services.guardar_imagen(slot="logo", datos=LOGO_SVG.encode("utf-8"))
        services.guardar_imagen(slot="isotipo", datos=ISOTIPO_SVG.encode("utf-8"))
        services.guardar_imagen(slot="favicon", datos=favicon_png())
    version = selectors.construir_publica()["version"]
    ctx.objetos["marca_version"] = version
    ctx.anotar(
        f"Marca ({MARCA_DEMO['nombre']}, versión {version}): {ctx.base}/auth/api/v1/auth/marca"
    )
