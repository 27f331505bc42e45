"""Demo: assistant settings, an integration API key, personal tokens of the demo people, and an
OAuth connection of `completo` (a verified client and its access token, as if signed in).

Secrets are stored hashed, so to print the same credentials on every run (and stay idempotent)
the demo derives them from SECRET_KEY with HMAC. This is for local demos only: production never
runs demo_data, and real keys and tokens are always random.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model, set_token_value

from apps.mcp import credenciales, recurso, services
from apps.mcp.models import AjustesAsistente, ClaveApi, TokenPersonal
from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
from hub import secretos
from hub.operacion.demo import ContextoDemo

NOMBRE_CLAVE = "Asistente de demostración"
# (key in the output, username, token name, days of validity (negative: expired), revoked)
TOKENS = [
    ("completo", "completo", "Demo: asistente de escritorio", 90, False),
    ("limitado", "limitado", "Demo: asistente", 90, False),
    ("sin_asistente", "sin_asistente", "Demo: sin acceso al asistente", 90, False),
    ("bloqueado", "bloqueado", "Demo: usuario bloqueado", 90, False),
    ("vencido", "completo", "Demo: token vencido", -1, False),
    ("revocado", "completo", "Demo: token revocado", 90, True),
]


def _secreto(prefijo: str, etiqueta: str) -> str:
    return secretos.derivar(prefijo, settings.SECRET_KEY.encode("utf-8"), f"demo-mcp:{etiqueta}")


def _clave() -> str:
    secreto = _secreto(PREFIJO_CLAVE, "clave")
    if not ClaveApi.objects.filter(digest=secretos.huella(secreto)).exists():
        clave = ClaveApi(nombre=NOMBRE_CLAVE)
        services.asignar_secreto_clave(clave, secreto)
        clave.save()
    return secreto


def _token(usuario, nombre: str, etiqueta: str, dias: int, revocado: bool) -> str:
    secreto = _secreto(PREFIJO_TOKEN, etiqueta)
    ahora = timezone.now()
    vence = ahora + timedelta(days=dias)
    existente = TokenPersonal.objects.filter(digest=secretos.huella(secreto)).first()
    if existente is None:
        services.guardar_token(
            usuario=usuario,
            nombre=nombre,
            secreto=secreto,
            vence=vence,
            revocado_en=ahora if revocado else None,
        )
    elif dias > 0 and not revocado and existente.vence < ahora + timedelta(days=dias // 2):
        # A later run keeps the demo token usable (the secret stays the same).
        existente.vence = vence
        existente.save(update_fields=["vence"])
    return secreto


NOMBRE_CLIENTE_OAUTH = "Asistente de demostración (OAuth)"
DIAS_OAUTH = 90  # a demo token outlives the administrator's lifetime: make bench uses it


def _oauth(usuario) -> str:
    """`completo`'s OAuth access token for a verified demo client (reading and writing)."""
    Aplicacion = get_application_model()
    # The prefix of the kind apps.autorizacion registers in the credential table at start.
    secreto = _secreto(credenciales.por_nombre(credenciales.NOMBRE_OAUTH).prefijo, "oauth")
    cliente, _ = Aplicacion.objects.get_or_create(
        client_id="demo-asistente-oauth",
        defaults={
            "name": NOMBRE_CLIENTE_OAUTH,
            "client_type": Aplicacion.CLIENT_PUBLIC,
            "authorization_grant_type": Aplicacion.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": "http://127.0.0.1/callback",
            "verificada": True,
        },
    )
    Acceso = get_access_token_model()
    vence = timezone.now() + timedelta(days=DIAS_OAUTH)
    existente = Acceso.objects.filter(token_checksum=secretos.huella(secreto)).first()
    if existente is None:
        acceso = Acceso(
            user=usuario,
            application=cliente,
            scope="asistente:leer asistente:escribir",
            expires=vence,
            resource=[recurso.url_recurso()],
        )
        set_token_value(acceso, secreto)
        acceso.save()
    elif existente.expires < timezone.now() + timedelta(days=DIAS_OAUTH // 2) or (
        existente.resource != [recurso.url_recurso()]
    ):
        # A later run keeps it usable, bound to this run's public address.
        existente.expires = vence
        existente.resource = [recurso.url_recurso()]
        existente.save(update_fields=["expires", "resource"])
    return secreto


def _solicitud_ajena(ctx: ContextoDemo) -> str | None:
    """A request `completo` can see and `limitado` cannot."""
    from apps.solicitudes.models import Solicitud

    usuarios = ctx.objetos["usuarios"]
    muestras = ctx.objetos.get("solicitudes") or {}
    candidatas = [muestras["de_completo_ajena"]] if "de_completo_ajena" in muestras else []
    candidatas += [s for s in muestras.values() if s not in candidatas]
    for solicitud in candidatas:
        if not solicitud.numero_radicado:
            continue
        visible = Solicitud.objects.filter(pk=solicitud.pk)
        if (
            visible.visibles_para(usuarios["completo"]).exists()
            and not visible.visibles_para(usuarios["limitado"]).exists()
        ):
            return solicitud.numero_radicado
    return None


@transaction.atomic
def cargar(ctx: ContextoDemo) -> None:
    AjustesAsistente.cargar()  # the row with its defaults
    usuarios = ctx.objetos["usuarios"]
    clave = _clave()
    tokens = {
        etiqueta: _token(usuarios[username], nombre, etiqueta, dias, revocado)
        for etiqueta, username, nombre, dias, revocado in TOKENS
    }
    ctx.salida["api_key"] = clave
    ctx.salida["tokens"] = tokens
    ctx.salida["oauth_token"] = _oauth(usuarios["completo"])
    ctx.salida["solicitud_ajena"] = _solicitud_ajena(ctx)
    endpoint = f"{ctx.base}/mcp/api/mcp"
    ctx.salida["mcp_url"] = endpoint
    ctx.anotar(f"Asistente (MCP): {endpoint}")
    ctx.anotar(f"  clave de API (X-MCP-Api-Key):        {clave}")
    ctx.anotar(f"  token de completo (X-MCP-User-Token): {tokens['completo']}")
    ctx.anotar(
        f"  curl -s {endpoint} -H 'Content-Type: application/json' "
        f"-H 'X-MCP-Api-Key: {clave}' -H 'X-MCP-User-Token: {tokens['completo']}' "
        """-d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'"""
    )
