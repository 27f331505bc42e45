"""Assistant server data: settings, credentials, used confirmations and the audit log."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.dispatch import Signal
from django.utils import timezone

from apps.mcp.etiquetas import etiqueta
from hub.cache.singleton import ModeloUnico
from hub.herramientas.registro import registro

if TYPE_CHECKING:
    from apps.cuentas.models import User

HERRAMIENTAS_PUBLICAS_POR_DEFECTO = ["estado_solicitud", "buscar_documento"]


def _publicas_por_defecto() -> list[str]:
    return list(HERRAMIENTAS_PUBLICAS_POR_DEFECTO)


def _lista_vacia() -> list[str]:
    return []


PUERTOS_POR_DEFECTO = {"http": 80, "https": 443}
# A token that expires within this time is flagged on the profile (time to regenerate it).
AVISO_VENCIMIENTO = timedelta(days=7)


def normalizar_origen(texto: str) -> str:
    """An origin as browsers send it (`https://host[:port]`, lower case, no default port).

    Raises ValidationError for anything else: a path, a query, credentials, another scheme.
    """
    texto = texto.strip()
    error = ValidationError(
        f"«{texto}» no es un origen: escriba solo el esquema, el dominio y, si hace falta, el "
        "puerto, p. ej. https://asistente.entidad.gov.co",
        code="origen",
    )
    try:
        partes = urlsplit(texto)
        puerto = partes.port
    except ValueError:
        raise error from None
    if (
        partes.scheme.lower() not in PUERTOS_POR_DEFECTO
        or not partes.hostname
        or partes.username is not None
        or partes.path not in ("", "/")
        or partes.query
        or partes.fragment
        or texto.endswith("?")
        or texto.endswith("#")
    ):
        raise error
    esquema = partes.scheme.lower()
    anfitrion = partes.hostname.lower()
    if ":" in anfitrion:  # IPv6 literal
        anfitrion = f"[{anfitrion}]"
    if puerto is not None and puerto != PUERTOS_POR_DEFECTO[esquema]:
        return f"{esquema}://{anfitrion}:{puerto}"
    return f"{esquema}://{anfitrion}"


def _limite(verbose: str, default: int, ayuda: str) -> models.PositiveIntegerField:
    return models.PositiveIntegerField(
        verbose, default=default, validators=[MinValueValidator(1)], help_text=ayuda
    )


class AjustesAsistente(ModeloUnico):
    """Per-organization knobs of the assistant server, changed by an administrator at run time."""

    escrituras_habilitadas = models.BooleanField(
        "escrituras habilitadas",
        default=True,
        help_text="Apagadas, las herramientas que escriben responden ESCRITURA_DESHABILITADA.",
    )
    herramientas_publicas = models.JSONField(
        "herramientas públicas",
        default=_publicas_por_defecto,
        blank=True,
        help_text=(
            "Herramientas que una integración puede usar solo con la clave de API (sin usuario). "
            "Solo admite herramientas de acceso público o verificado."
        ),
    )
    permitir_token_solo = models.BooleanField(
        "permitir token personal sin clave de API",
        default=True,
        help_text="Si se desactiva, el token personal debe llegar junto con una clave de API.",
    )
    token_max_dias = models.PositiveIntegerField(
        "vigencia máxima del token personal (días)",
        default=90,
        validators=[MinValueValidator(1), MaxValueValidator(366)],
    )
    aprobar_en_el_hub = models.BooleanField(
        "las escrituras del asistente se aprueban en el hub",
        default=False,
        help_text="Encendido, la vista previa de una escritura trae un enlace a una página del hub "
        "donde la persona la aprueba o la rechaza; la confirmación solo se cumple después de "
        "«Aprobar». Los clientes reciben entonces el código APROBACION_PENDIENTE.",
    )
    confirmacion_segundos = models.PositiveIntegerField(
        "vigencia del token de confirmación (segundos)",
        default=300,
        validators=[MinValueValidator(30), MaxValueValidator(3600)],
    )
    integracion_por_minuto = _limite(
        "integración sin usuario (por minuto)", 120, "Llamadas por minuto por clave de API."
    )
    usuario_por_minuto = _limite(
        "usuario identificado (por minuto)", 60, "Llamadas por minuto por usuario."
    )
    escrituras_por_minuto = _limite(
        "escrituras confirmadas (por minuto)", 6, "Escrituras confirmadas por minuto por usuario."
    )
    verificaciones_fallidas_por_hora = _limite(
        "verificaciones fallidas (por hora)",
        8,
        "Consultas de estado_solicitud sin usuario que fallan, por integración e IP.",
    )
    # OAuth sign-in of assistants (apps.autorizacion; issue 25).
    oauth_habilitado = models.BooleanField(
        "conexiones OAuth habilitadas",
        default=True,
        help_text="Apagadas, ninguna aplicación obtiene códigos ni tokens, y los que tienen "
        "dejan de funcionar.",
    )
    oauth_solo_verificadas = models.BooleanField(
        "solo aplicaciones verificadas",
        default=False,
        help_text="Solo las aplicaciones que un administrador marcó como verificadas pueden "
        "conectarse.",
    )
    oauth_registro_abierto = models.BooleanField(
        "registro abierto de aplicaciones",
        default=True,
        help_text="Las aplicaciones se registran solas (RFC 7591). Apagado, solo se conectan las "
        "que agrega un administrador.",
    )
    oauth_cimd_habilitado = models.BooleanField(
        "documentos de metadatos de cliente (CIMD)",
        default=True,
        help_text="Acepta como client_id la dirección https de un documento de metadatos (así se "
        "conectan Claude y ChatGPT sin registrarse). Solo se consultan direcciones públicas.",
    )
    oauth_cimd_dominios = models.JSONField(
        "dominios permitidos para CIMD",
        default=_lista_vacia,
        blank=True,
        help_text="Vacío: cualquier dominio público. Con dominios (p. ej. claude.ai, o "
        ".openai.com para sus subdominios), solo esos.",
    )
    oauth_acceso_segundos = models.PositiveIntegerField(
        "vigencia del token de acceso OAuth (segundos)",
        default=3600,
        validators=[MinValueValidator(300), MaxValueValidator(86400)],
    )
    oauth_refresco_dias = models.PositiveIntegerField(
        "vigencia del token de refresco OAuth (días)",
        default=30,
        validators=[MinValueValidator(1), MaxValueValidator(365)],
        help_text="Cada uso lo renueva: se cuenta desde el último refresco.",
    )
    origenes_permitidos = models.JSONField(
        "orígenes permitidos",
        default=_lista_vacia,
        blank=True,
        help_text=(
            "Orígenes (cabecera Origin) aceptados además del propio sitio, p. ej. "
            "https://asistente.entidad.gov.co. Las peticiones sin Origin se aceptan."
        ),
    )

    class Meta:
        verbose_name = "ajustes del asistente"
        verbose_name_plural = "ajustes del asistente"
        permissions = [
            ("asistente.usar", "Puede usar el asistente (MCP) y crear tokens personales"),
            (
                "asistente.administrar",
                "Puede usar las herramientas de administración del asistente",
            ),
        ]

    def __str__(self) -> str:
        return "Ajustes del asistente"

    def clean(self) -> None:
        errores: dict[str, str] = {}
        publicas = self.herramientas_publicas
        if not isinstance(publicas, list) or not all(isinstance(n, str) for n in publicas):
            errores["herramientas_publicas"] = "Debe ser una lista de nombres."
        else:
            malas = [n for n in publicas if not registro.puede_ser_publica(n)]
            if malas:
                errores["herramientas_publicas"] = (
                    "No son herramientas de acceso público o verificado: " + ", ".join(malas)
                )
        origenes = self.origenes_permitidos
        if not isinstance(origenes, list) or not all(isinstance(o, str) for o in origenes):
            errores["origenes_permitidos"] = "Debe ser una lista de orígenes."
        else:
            try:
                self.origenes_permitidos = list(dict.fromkeys(map(normalizar_origen, origenes)))
            except ValidationError as exc:
                errores["origenes_permitidos"] = exc.messages[0]
        dominios = self.oauth_cimd_dominios
        if not isinstance(dominios, list) or not all(
            isinstance(d, str) and d.strip() and "/" not in d for d in dominios
        ):
            errores["oauth_cimd_dominios"] = "Debe ser una lista de dominios, sin esquema ni ruta."
        else:
            self.oauth_cimd_dominios = [d.strip().lower() for d in dominios]
        if errores:
            raise ValidationError(errores)


# Sent after an update() of tokens or keys that may change who they are: update() sends no
# post_save. Whoever caches identities listens (apps.mcp.identidades): the model names no caller.
credenciales_actualizadas = Signal()


class CredencialQuerySet(models.QuerySet):
    # Noting the last use changes nothing about who a credential is.
    SOLO_USO = frozenset({"ultimo_uso", "ultima_ip"})

    def update(self, **kwargs):
        """Like update(), and cached identities stop counting (update() sends no signal)."""
        filas = super().update(**kwargs)
        if not set(kwargs) <= self.SOLO_USO:
            credenciales_actualizadas.send(sender=self.model)
        return filas


class Credencial(models.Model):
    """Common fields of a stored secret: only its SHA-256 digest and a visible prefix are kept."""

    nombre = models.CharField(max_length=100)
    prefijo = models.CharField("prefijo visible", max_length=20, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    creado = models.DateTimeField("creado", default=timezone.now, editable=False)
    revocado_en = models.DateTimeField("revocado en", null=True, blank=True, editable=False)
    ultimo_uso = models.DateTimeField("último uso", null=True, blank=True, editable=False)

    objects = CredencialQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def revocado(self) -> bool:
        return self.revocado_en is not None

    def vencido(self, ahora: datetime | None = None) -> bool:
        vence = getattr(self, "vence", None)
        return vence is not None and vence <= (ahora or timezone.now())

    def vigente(self, ahora: datetime | None = None) -> bool:
        return not self.revocado and not self.vencido(ahora)

    @property
    def estado(self) -> str:
        """activo, vencido or revocado (revocation wins)."""
        if self.revocado:
            return "revocado"
        if self.vencido():
            return "vencido"
        return "activo"


class ClaveApi(Credencial):
    """An integration's API key (an application or assistant), created by an administrator."""

    vence = models.DateTimeField("vence", null=True, blank=True, help_text="Vacío: no vence.")
    creada_por = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )

    class Meta:
        verbose_name = "clave de API"
        verbose_name_plural = "claves de API"
        ordering = ["-creado"]

    def __str__(self) -> str:
        return f"{self.nombre} ({self.prefijo}…)"


class TokenPersonalQuerySet(CredencialQuerySet):
    def con_acceso_del_usuario(self) -> TokenPersonalQuerySet:
        """Annotate `usuario_con_acceso`: the owner is active and may use the assistant now (the
        same rule the endpoint applies with has_perm, in one query for a whole list)."""
        from django.contrib.auth.models import Permission

        from apps.cuentas.models import User

        permiso = Permission.objects.filter(
            content_type__app_label="mcp", codename="asistente.usar"
        ).values("pk")
        directo = User.user_permissions.through.objects.filter(
            user=OuterRef("usuario"), permission__in=permiso
        )
        por_rol = User.groups.through.objects.filter(
            user=OuterRef("usuario"), group__permissions__in=permiso
        )
        return self.annotate(
            usuario_con_acceso=models.ExpressionWrapper(
                Q(usuario__is_active=True)
                & (Q(usuario__is_superuser=True) | Exists(directo) | Exists(por_rol)),
                output_field=models.BooleanField(),
            )
        )


class TokenPersonal(Credencial):
    """A person's token: acts with the user's current permissions until it expires or is revoked."""

    usuario = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tokens_mcp"
    )
    vence = models.DateTimeField("vence")
    ultima_ip = models.GenericIPAddressField("última IP", null=True, blank=True, editable=False)
    # The areas of the assistant it reaches (apps.mcp.areas), space-separated; empty: every area
    # (the tokens created before areas existed keep what they had).
    areas = models.CharField(
        "áreas",
        max_length=100,
        blank=True,
        default="",
        help_text="Códigos de área separados por espacios; vacío: todas las áreas.",
    )

    objects = TokenPersonalQuerySet.as_manager()

    class Meta:
        verbose_name = "token personal"
        verbose_name_plural = "tokens personales"
        ordering = ["-creado"]
        indexes = [models.Index(fields=["usuario", "-creado"], name="mcp_token_usuario_idx")]

    def __str__(self) -> str:
        return f"{self.nombre} ({self.prefijo}…)"

    def por_vencer(self, ahora: datetime | None = None) -> bool:
        """Still valid, but for less than AVISO_VENCIMIENTO."""
        ahora = ahora or timezone.now()
        return self.vigente(ahora) and self.vence - ahora <= AVISO_VENCIMIENTO


class ConfirmacionUsadaQuerySet(models.QuerySet):
    def vencidas(self, ahora: datetime) -> ConfirmacionUsadaQuerySet:
        """Spent tokens that could not be presented any more anyway."""
        return self.filter(vence__lt=ahora)


class ConfirmacionUsada(models.Model):
    """A spent confirmation token: the unique id makes a write run at most once, on any host."""

    jti = models.CharField("identificador", max_length=32, primary_key=True)
    herramienta = models.CharField(max_length=80)
    usuario = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    usada_en = models.DateTimeField(default=timezone.now)
    # The token's own expiry: past it the token is refused anyway, so the row may be deleted
    # (`manage.py mantenimiento`).
    vence = models.DateTimeField(db_index=True)

    objects = ConfirmacionUsadaQuerySet.as_manager()

    class Meta:
        verbose_name = "confirmación usada"
        verbose_name_plural = "confirmaciones usadas"

    def __str__(self) -> str:
        return f"{self.herramienta} {timezone.localtime(self.usada_en):%d/%m/%Y %H:%M}"


class AprobacionQuerySet(models.QuerySet):
    def vencidas(self, ahora: datetime) -> AprobacionQuerySet:
        """Approvals whose token could not be presented any more anyway."""
        return self.filter(vence__lt=ahora)

    def de(self, usuario: User) -> AprobacionQuerySet:
        """The person's own: another person's approval does not exist for them."""
        if not getattr(usuario, "is_authenticated", False):
            return self.none()
        return self.filter(usuario=usuario)


class Aprobacion(models.Model):
    """A preview waiting for, or holding, the person's decision on the hub (issue 40).

    Keyed by the confirmation token's id, like `ConfirmacionUsada`; the page's address carries
    `clave`, a random id of its own, never the token. It keeps the preview to show it: the token
    carries only a digest of the arguments.
    """

    class Estado(models.TextChoices):
        PENDIENTE = "pendiente", "Pendiente"
        APROBADA = "aprobada", "Aprobada"
        RECHAZADA = "rechazada", "Rechazada"

    jti = models.CharField("identificador del token", max_length=32, primary_key=True)
    clave = models.CharField("identificador del enlace", max_length=64, unique=True)
    herramienta = models.CharField(max_length=80)
    titulo = models.CharField("operación", max_length=200)
    usuario = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    resumen = models.TextField("vista previa")
    previa = models.JSONField("datos de la vista previa", default=dict)
    estado = models.CharField(max_length=10, choices=Estado.choices, default=Estado.PENDIENTE)
    creada = models.DateTimeField(default=timezone.now)
    decidida_en = models.DateTimeField("decidida en", null=True, blank=True)
    # The token's own expiry: past it nothing can be decided nor confirmed, and
    # `manage.py mantenimiento` deletes the row.
    vence = models.DateTimeField(db_index=True)

    objects = AprobacionQuerySet.as_manager()

    class Meta:
        verbose_name = "aprobación en el hub"
        verbose_name_plural = "aprobaciones en el hub"

    def __str__(self) -> str:
        return f"{self.herramienta} {self.get_estado_display().lower()}"

    @property
    def enlace(self) -> str:
        return f"/mcp/aprobaciones/{self.clave}/"

    def vencida(self, ahora: datetime | None = None) -> bool:
        return (ahora or timezone.now()) > self.vence


def _llamante(
    modelo: type[models.Model] | str, on_delete: Callable, verbose_name: str | None = None
) -> models.ForeignKey:
    """Who called, on a log row (a person or an API key): optional, never edited, no reverse."""
    return models.ForeignKey(
        modelo,
        verbose_name=verbose_name,
        on_delete=on_delete,
        null=True,
        blank=True,
        related_name="+",
        editable=False,
    )


class SoloAgregar(Exception):
    """Audit rows are never changed nor deleted."""


class AuditoriaQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise SoloAgregar("El registro de auditoría no se modifica.")

    def delete(self):
        raise SoloAgregar("El registro de auditoría no se borra.")

    def anteriores_a(self, fecha: datetime) -> AuditoriaQuerySet:
        return self.filter(creado__lt=fecha)

    def de_la_persona(self, usuario) -> AuditoriaQuerySet:
        """The calls made in this person's name, whoever asks: the person's own activity page
        shows exactly these (an administrator reads everyone's in the admin, not here)."""
        if usuario is None or not usuario.is_authenticated:
            return self.none()
        return self.filter(usuario_id=usuario.pk)

    def purgar_por_retencion(self) -> int:
        """The only way rows leave: `manage.py mantenimiento`, and only past a configured
        HUB_RETENCION_AUDITORIA_DIAS. People (the admin included) can never delete a row."""
        # A plain QuerySet over the same query: Django deletes it in one statement (no signal
        # listens to audit rows and nothing points at them).
        plano = models.QuerySet(model=self.model, query=self.query.chain(), using=self.db)
        borradas, _ = plano.delete()
        return borradas


class RegistroAuditoria(models.Model):
    """One row per tools/call, whatever the outcome; append-only."""

    class TipoCredencial(models.TextChoices):
        CLAVE = "clave_api", "Clave de API"
        TOKEN = "token_personal", "Token personal"
        CLAVE_Y_TOKEN = "clave_y_token", "Clave de API y token personal"
        OAUTH = "oauth", "Aplicación conectada (OAuth)"

    creado = models.DateTimeField("fecha", default=timezone.now, db_index=True, editable=False)
    usuario = _llamante(settings.AUTH_USER_MODEL, models.PROTECT)
    clave = _llamante(ClaveApi, models.PROTECT, verbose_name="integración")
    token_prefijo = models.CharField("token", max_length=20, blank=True, editable=False)
    # The OAuth client of the call (apps.autorizacion): its id and its name as they were, plain
    # values, so that a client deleted later leaves the append-only row as it was.
    cliente_id = models.BigIntegerField(
        "id del cliente OAuth", null=True, blank=True, db_index=True, editable=False
    )
    cliente_nombre = models.CharField("cliente OAuth", max_length=255, blank=True, editable=False)
    credencial = models.CharField(
        "credencial", max_length=20, choices=TipoCredencial.choices, editable=False
    )
    ip = models.GenericIPAddressField("IP", null=True, blank=True, editable=False)
    herramienta = models.CharField(max_length=80, db_index=True, editable=False)
    argumentos = models.JSONField(default=dict, blank=True, editable=False)
    resultado = models.CharField(max_length=40, db_index=True, editable=False)
    # What a write tool created or changed: {"tipo", "texto", "enlace"} (empty for the rest), so
    # that the person's activity page links to it (apps.mcp.actividad).
    objeto = models.JSONField("qué escribió", default=dict, blank=True, editable=False)
    duracion_ms = models.PositiveIntegerField("duración (ms)", default=0, editable=False)
    # The same id as the request's log lines (X-Request-ID): from an audit row to its logs.
    request_id = models.CharField("id de petición", max_length=64, blank=True, editable=False)
    # The X-Request-ID the request arrived with (a proxy's, or whatever a client sent): kept beside
    # ours to find the row from a proxy's log line, never taken for ours.
    request_id_recibido = models.CharField(
        "id de petición recibido", max_length=64, blank=True, editable=False
    )

    objects = AuditoriaQuerySet.as_manager()

    class Meta:
        verbose_name = "registro de auditoría"
        verbose_name_plural = "registros de auditoría"
        ordering = ["-creado", "-id"]
        indexes = [models.Index(fields=["usuario", "-creado"], name="mcp_audit_usuario_idx")]

    def __str__(self) -> str:
        # Local time, as every date of the admin shows it.
        creado = timezone.localtime(self.creado)
        return f"{creado:%d/%m/%Y %H:%M:%S} {self.herramienta} · {etiqueta(self.resultado)}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise SoloAgregar("El registro de auditoría no se modifica.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise SoloAgregar("El registro de auditoría no se borra.")


class RechazoAsistenteQuerySet(models.QuerySet):
    def pendientes(self) -> RechazoAsistenteQuerySet:
        """Rows whose count may still grow in the cache."""
        return self.filter(pendiente=True)

    def entre(self, desde: datetime, hasta: datetime) -> RechazoAsistenteQuerySet:
        return self.filter(minuto__gte=desde, minuto__lte=hasta)

    def anteriores_a(self, fecha: datetime) -> RechazoAsistenteQuerySet:
        return self.filter(minuto__lt=fecha)

    def de_la_persona(self, usuario) -> RechazoAsistenteQuerySet:
        """The refusals whose credentials named this person (403, 429); a 401 names nobody."""
        if usuario is None or not usuario.is_authenticated:
            return self.none()
        return self.filter(usuario_id=usuario.pk, estado__in=(403, 429))


class RechazoAsistente(models.Model):
    """Calls to the assistant refused before any tool ran (401, 403, 429), counted per minute,
    per who (a person, an API key or, with neither, the client's address) and per code."""

    minuto = models.DateTimeField("minuto", editable=False)
    # The counting key: u<id>, k<id>, u<id>k<id> or "ip <address>" (no NULLs: unique on every
    # database).
    quien = models.CharField("quién", max_length=80, editable=False)
    usuario = _llamante(settings.AUTH_USER_MODEL, models.SET_NULL)
    clave = _llamante(ClaveApi, models.SET_NULL, verbose_name="integración")
    # As the per-address limits count it: IPv4, or an IPv6 host's /64.
    direccion = models.CharField("dirección", max_length=49, blank=True, editable=False)
    estado = models.PositiveSmallIntegerField("estado HTTP", editable=False)
    codigo = models.CharField("código", max_length=40, editable=False)
    veces = models.PositiveIntegerField("veces", default=1, editable=False)
    # True while the minute's count lives in the cache (apps.mcp.rechazos.volcar writes it).
    pendiente = models.BooleanField(default=True, editable=False)

    objects = RechazoAsistenteQuerySet.as_manager()

    class Meta:
        verbose_name = "rechazo del asistente"
        verbose_name_plural = "rechazos del asistente"
        ordering = ["-minuto", "-veces"]
        constraints = [
            models.UniqueConstraint(
                fields=["minuto", "quien", "estado", "codigo"], name="mcp_rechazo_unico"
            )
        ]
        indexes = [
            models.Index(
                fields=["minuto"], condition=Q(pendiente=True), name="mcp_rechazo_pendiente_idx"
            )
        ]

    def __str__(self) -> str:
        minuto = timezone.localtime(self.minuto)
        return f"{minuto:%d/%m/%Y %H:%M} {self.estado} {etiqueta(self.codigo)} ×{self.veces}"
