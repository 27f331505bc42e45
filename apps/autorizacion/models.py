"""The hub's OAuth client (swapped in for django-oauth-toolkit's Application) and, as proxies,
the library's tokens under Spanish names for the admin.

The library's Application has no verified, disabled or last-used field; this model adds them
(docs/contrato.md; docs/decisiones/oauth.md). A client that may not be used now (disabled,
OAuth connections switched off, or not verified while only verified clients are allowed) is
"not usable" for the library (`is_usable`): it gets no code and no token, and its tokens stop
working at the MCP endpoint (apps.autorizacion.accesos).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from oauth2_provider.models import (
    AbstractApplication,
    AccessToken,
    ApplicationManager,
    Grant,
    RefreshToken,
)

from apps.autorizacion import redirecciones
from apps.autorizacion.permisos import VERBOS
from apps.mcp.models import AjustesAsistente
from hub.busqueda.texto import limpiar


def _permisos(modelo: str, plural: str, acciones: tuple[str, ...]) -> list[tuple[str, str]]:
    """Django's default permissions (same codenames), named in Spanish: Django would name them
    "Can add …" from the model's name, and the library's models have English names."""
    return [(f"{accion}_{modelo}", f"Puede {VERBOS[accion]} {plural}") for accion in acciones]


def nombre_limpio(texto: str | None) -> str:
    """A client's name as stored and shown: no control, invisible or bidirectional characters,
    whitespace folded (text from strangers is data: docs/decisiones/asistente.md)."""
    return " ".join(limpiar(texto).split())[:255]


class MetodoAutenticacion(models.TextChoices):
    """RFC 7591 `token_endpoint_auth_method`: how a client proves itself at the token endpoint.
    Empty: a confidential client registered before the hub kept it (either secret method)."""

    NINGUNO = "none", "Ninguno (cliente público, PKCE)"
    BASIC = "client_secret_basic", "Secreto por HTTP Basic"
    POST = "client_secret_post", "Secreto en el cuerpo de la petición"
    ANTERIOR = "", "Secreto por HTTP Basic o en el cuerpo (registro anterior)"


class Aplicacion(AbstractApplication):
    """An OAuth client: an assistant that registered itself or that an administrator added."""

    class Origen(models.TextChoices):
        # The library's values (it writes them), named for people.
        MANUAL = "manual", "Agregada por un administrador"
        DCR = "dcr", "Registro dinámico (RFC 7591)"
        CIMD = "cimd", "Documento de metadatos del cliente (CIMD)"

    name = models.CharField(
        "nombre",
        max_length=255,
        blank=True,
        help_text="Como el cliente se presentó: texto de terceros, solo para mostrar.",
    )
    registration_source = models.CharField(
        "cómo se registró",
        max_length=32,
        choices=Origen.choices,
        default=Origen.MANUAL,
    )
    created = models.DateTimeField("creada", auto_now_add=True)
    verificada = models.BooleanField(
        "verificada",
        default=False,
        help_text="Un administrador comprobó quién es. Sin marcar, la página de consentimiento "
        "la muestra como «no verificada».",
    )
    deshabilitada = models.BooleanField(
        "deshabilitada",
        default=False,
        help_text="No recibe códigos ni tokens, y los que tiene dejan de funcionar.",
    )
    ultimo_uso = models.DateTimeField("último uso", null=True, blank=True, editable=False)
    token_endpoint_auth_method = models.CharField(
        "autenticación en el endpoint de tokens",
        max_length=32,
        choices=MetodoAutenticacion.choices,
        default=MetodoAutenticacion.NINGUNO,
        blank=True,
        editable=False,
        help_text="Como se registró (RFC 7591): el endpoint de tokens solo acepta ese método.",
    )

    objects = ApplicationManager()

    class Meta(AbstractApplication.Meta):
        swappable = "OAUTH2_PROVIDER_APPLICATION_MODEL"
        verbose_name = "aplicación conectada"
        verbose_name_plural = "aplicaciones conectadas"
        ordering = ["-created"]
        default_permissions = ()
        permissions = _permisos(
            "aplicacion", "las aplicaciones conectadas", ("add", "change", "delete", "view")
        )

    def natural_key(self) -> tuple[str]:
        return (self.client_id,)

    def __str__(self) -> str:
        return self.nombre_visible

    @property
    def nombre_visible(self) -> str:
        """The name as registered, stripped of control and invisible characters (text is data)."""
        return nombre_limpio(self.name) or self.client_id[:40]

    def save(self, *args, **kwargs):
        # Text typed by strangers: stored stripped, so every place that shows it is safe.
        self.name = nombre_limpio(self.name)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        errores: dict[str, list] = {}
        try:
            super().clean()
        except ValidationError as exc:
            errores = exc.update_error_dict(errores)
        malas = [uri for uri in self.redirect_uris.split() if not redirecciones.permitida(uri)]
        if malas:
            errores.setdefault("redirect_uris", []).append(
                ValidationError(
                    "Solo se admiten direcciones https, http a 127.0.0.1, localhost o [::1], "
                    "o un esquema propio con punto (com.ejemplo.app:/retorno): " + ", ".join(malas),
                    code="invalid_redirect_uri",
                )
            )
        if errores:
            raise ValidationError(errores)

    def get_allowed_schemes(self) -> list[str]:
        """https, http for loopback addresses (clean() refuses http to any other host), and the
        private-use schemes (RFC 8252 7.1) of this client's own redirect URIs: the library's
        per-application hook, read at clean() and at every redirect to the client."""
        return redirecciones.esquemas(self.redirect_uris.split())

    def usable_ahora(self, ajustes: AjustesAsistente | None = None) -> bool:
        """Whether this client may get codes and tokens and use them now."""
        ajustes = ajustes or AjustesAsistente.cargar()
        if self.deshabilitada or not ajustes.oauth_habilitado:
            return False
        if self.verificada or self.registration_source == self.Origen.MANUAL:
            return self.verificada or not ajustes.oauth_solo_verificadas
        # Registered by itself: only while the way it came in stays open (registration closed
        # means "only the clients an administrator added or verified").
        if ajustes.oauth_solo_verificadas:
            return False
        if self.registration_source == self.Origen.CIMD:
            return ajustes.oauth_cimd_habilitado
        return ajustes.oauth_registro_abierto

    def is_usable(self, request) -> bool:
        """The library asks this at the authorization, token and revocation endpoints."""
        return self.usable_ahora()


class TokenAcceso(AccessToken):
    """The library's access token, as the admin shows it."""

    class Meta:
        proxy = True
        verbose_name = "token de acceso OAuth"
        verbose_name_plural = "tokens de acceso OAuth"
        default_permissions = ()
        permissions = _permisos(
            "tokenacceso", "los tokens de acceso OAuth", ("change", "delete", "view")
        )


class TokenRefresco(RefreshToken):
    """The library's refresh token, as the admin shows it."""

    class Meta:
        proxy = True
        verbose_name = "token de refresco OAuth"
        verbose_name_plural = "tokens de refresco OAuth"
        default_permissions = ()
        permissions = _permisos(
            "tokenrefresco", "los tokens de refresco OAuth", ("change", "delete", "view")
        )


class CodigoAutorizacion(Grant):
    """The library's authorization code (a grant), as the admin shows it."""

    class Meta:
        proxy = True
        verbose_name = "código de autorización OAuth"
        verbose_name_plural = "códigos de autorización OAuth"
        default_permissions = ()
        permissions = _permisos(
            "codigoautorizacion", "los códigos de autorización OAuth", ("delete", "view")
        )


class CanjeCodigo(models.Model):
    """An authorization code already exchanged: its digest and the token family it gave, so a
    replay revokes that family (apps.autorizacion.canjes). Never the code itself."""

    huella = models.CharField("huella del código", max_length=64, unique=True, editable=False)
    familia = models.UUIDField("familia de tokens", editable=False)
    canjeado = models.DateTimeField("canjeado", auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "código canjeado"
        verbose_name_plural = "códigos canjeados"
        # No admin page: nobody manages these rows, so no permission to grant either.
        default_permissions = ()

    def __str__(self) -> str:
        return f"código canjeado {self.canjeado:%Y-%m-%d %H:%M}"


def validar_anfitrion(valor: str) -> None:
    """A bare DNS host name (no scheme, port, path nor wildcard); saved in lower case."""
    etiqueta = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
    if not re.fullmatch(rf"(?:{etiqueta}\.)+{etiqueta}", (valor or "").lower()) or len(valor) > 253:
        raise ValidationError(
            "Escriba solo el nombre del anfitrión (por ejemplo, claude.ai): sin https://, puerto "
            "ni ruta.",
            code="invalid",
        )


class AnfitrionReconocido(models.Model):
    """A callback host the administrator recognises: a client whose every redirect URI is on it
    (https) is shown under this name, since its codes can only reach that host. Recognised is
    not verified: someone else's account on the same app returns to the same host."""

    anfitrion = models.CharField(
        "anfitrión",
        max_length=253,
        unique=True,
        validators=[validar_anfitrion],
        help_text="El nombre exacto del anfitrión de las direcciones de retorno (https), por "
        "ejemplo claude.ai. No incluye subdominios.",
    )
    nombre = models.CharField(
        "nombre que se muestra",
        max_length=80,
        help_text="Como la verán las personas en las páginas de ingreso y de consentimiento.",
    )

    class Meta:
        verbose_name = "anfitrión reconocido"
        verbose_name_plural = "anfitriones reconocidos"
        ordering = ["nombre", "anfitrion"]
        default_permissions = ()
        permissions = _permisos(
            "anfitrionreconocido",
            "los anfitriones reconocidos",
            ("add", "change", "delete", "view"),
        )

    def __str__(self) -> str:
        return f"{self.nombre} ({self.anfitrion})"

    def save(self, *args, **kwargs):
        self.anfitrion = (self.anfitrion or "").strip().lower()
        super().save(*args, **kwargs)


class PedidoAlcances(models.Model):
    """What an application last asked a person for (the scopes of its last grant request, areas
    included): how far the person may widen the connection from their profile, never beyond."""

    usuario = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    aplicacion = models.ForeignKey(Aplicacion, on_delete=models.CASCADE, related_name="+")
    alcances = models.CharField("alcances pedidos", max_length=255)
    actualizado = models.DateTimeField("actualizado", auto_now=True)

    class Meta:
        verbose_name = "alcances pedidos"
        verbose_name_plural = "alcances pedidos"
        default_permissions = ()
        constraints = [
            models.UniqueConstraint(
                fields=["usuario", "aplicacion"], name="autorizacion_pedido_unico"
            )
        ]

    def __str__(self) -> str:
        return self.alcances
