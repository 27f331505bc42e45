"""Admin of CDP and RP with their movements: requests are created here, states move by actions."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages

from apps.presupuesto import services
from apps.presupuesto.admin.acciones import ACCIONES, FormularioAccionMotivo, accion, motivo
from apps.presupuesto.admin.pesos import columna_pesos
from apps.presupuesto.admin.servicio import AdminServicio, FormularioServicio
from apps.presupuesto.estados import EstadoExpedicion
from apps.presupuesto.herramientas.formato import pesos
from apps.presupuesto.models import Cdp, MovimientoCdp, MovimientoRp, Rp
from hub.administracion.sitio import columna_corta, columna_de, columna_fecha

# Amounts are shown in pesos ("$ 10.400.000,00") through the admins' *_pesos methods.
SALDOS_CDP = ["valor_inicial_pesos", "valor_actual_pesos", "comprometido_pesos", "saldo_pesos"]
SALDOS_RP = ["valor_inicial_pesos", "valor_actual_pesos", "obligado_pesos", "por_obligar_pesos"]


class ConPesos:
    """The amounts of CDP, RP and movements, as admin methods that write them in pesos."""

    valor_pesos = columna_pesos("valor", "valor")
    valor_inicial_pesos = columna_pesos("valor_inicial", "valor inicial")
    valor_actual_pesos = columna_pesos("valor_actual", "valor actual")
    comprometido_pesos = columna_pesos("comprometido", "comprometido")
    saldo_pesos = columna_pesos("saldo", "saldo")
    obligado_pesos = columna_pesos("obligado", "obligado")
    por_obligar_pesos = columna_pesos("por_obligar", "por obligar", ordenar=False)


# The head of a CDP's or RP's change page: its numbers, year and state.
CABECERA = [
    "numero",
    "numero_externo",
    "vigencia",
    "estado",
    "estado_expedicion",
    "numero_radicado",
]
# The fieldset of a CDP's or RP's path through the financial area, the same on both pages.
TRAMITE = (
    "Trámite",
    {
        "fields": [
            "fecha_expedicion",
            "solicitado_por",
            "expedido_por",
            "motivo_devolucion",
            "motivo_rechazo",
            "motivo_anulacion",
            "creado_en",
            "actualizado_en",
        ]
    },
)


class SoloLectura(ConPesos, admin.TabularInline):
    """Movements and RPs are listed on their document; they are created through services."""

    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class MovimientoInline(SoloLectura):
    fields = ["numero", "tipo", "valor_pesos", "fecha", "estado", "descripcion"]
    readonly_fields = fields


class MovimientoCdpInline(MovimientoInline):
    model = MovimientoCdp


class RpInline(SoloLectura):
    model = Rp
    fields = [
        "numero",
        "numero_externo",
        "beneficiario",
        "valor_actual_pesos",
        "obligado_pesos",
        "estado",
    ]
    readonly_fields = fields


class FormularioDocumento(FormularioServicio):
    """A CDP or RP request: its value is asked for as "valor" (the service sets the others)."""

    valor_inicial = forms.DecimalField(label="valor", max_digits=18, decimal_places=2)


class FormularioCdp(FormularioDocumento):
    class Meta:
        model = Cdp
        fields = [
            "proyecto",
            "area",
            "linea_paa",
            "objeto",
            "valor_inicial",
            "numero_radicado",
            "dependencia",
        ]

    def crear(self) -> Cdp:
        datos = self.cleaned_data
        return services.solicitar_cdp(
            proyecto=datos["proyecto"],
            area=datos["area"],
            linea_paa=datos.get("linea_paa"),
            objeto=datos["objeto"],
            valor=datos["valor_inicial"],
            numero_radicado=datos.get("numero_radicado"),
            dependencia=datos.get("dependencia") or "",
            usuario=getattr(self, "usuario", None),
        )


class AdminDocumento(ConPesos, AdminServicio):
    """What CDP and RP admins share: the review actions and a read-only change page."""

    action_form = FormularioAccionMotivo
    actions = [
        "revisar",
        "en_sistema_financiero",
        "en_firma",
        "devolver",
        "rechazar",
        "expedir",
        "anular",
        "verificar_saldos",
    ]
    campos_alta: list[str] = []
    fieldsets_cambio: list = []

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [(None, {"fields": self.campos_alta})]
        return self.fieldsets_cambio

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return [campo for _, opciones in self.fieldsets_cambio for campo in opciones["fields"]]

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []

    expedicion = columna_fecha("fecha_expedicion", "expedición")

    objeto_corto = columna_corta("objeto", "objeto", 60, ordenar=False)

    area_sigla = columna_de("area__sigla", "área")

    revisar = accion(
        "Pasar a revisión",
        lambda modeladmin, request, o: services.revisar(documento=o),
        "En revisión",
    )
    en_sistema_financiero = accion(
        "Marcar: en registro en el sistema financiero",
        lambda modeladmin, request, o: services.marcar_expedicion(
            documento=o, estado_expedicion=EstadoExpedicion.EN_SISTEMA_FINANCIERO
        ),
        "Marcados",
    )
    en_firma = accion(
        "Marcar: en firma del ordenador del gasto",
        lambda modeladmin, request, o: services.marcar_expedicion(
            documento=o, estado_expedicion=EstadoExpedicion.EN_FIRMA
        ),
        "Marcados",
    )
    devolver = accion(
        "Devolver al área (escriba el motivo)",
        lambda modeladmin, request, o: services.devolver(documento=o, motivo=motivo(request)),
        "Devueltos",
    )
    rechazar = accion(
        "Rechazar (escriba el motivo)",
        lambda modeladmin, request, o: services.rechazar(documento=o, motivo=motivo(request)),
        "Rechazados",
    )

    @admin.action(description="Expedir (número externo opcional)", permissions=["change"])
    def expedir(self, request, queryset):
        externo = request.POST.get("numero_externo", "").strip() or None
        if externo and queryset.count() > 1:
            self.message_user(
                request, "Un número externo es para un solo documento.", messages.ERROR
            )
            return
        ACCIONES.aplicar(
            self,
            request,
            queryset,
            lambda o: self.expedir_uno(o, externo, request.user),
            "Expedidos",
        )

    anular = accion(
        "Anular (escriba el motivo)",
        lambda modeladmin, request, o: modeladmin.anular_uno(o, motivo(request), request.user),
        "Anulados",
    )

    @admin.action(description="Verificar saldos contra los movimientos", permissions=["view"])
    def verificar_saldos(self, request, queryset):
        for objeto in queryset:
            cdp = objeto if isinstance(objeto, Cdp) else objeto.cdp
            diferencias = services.recalcular_saldos(cdp)
            if diferencias:
                detalle = "; ".join(
                    f"{k}: {pesos(a)} ≠ {pesos(b)}" for k, (a, b) in diferencias.items()
                )
                self.message_user(request, f"{cdp}: {detalle}", messages.WARNING)
            else:
                self.message_user(request, f"{cdp}: saldos consistentes.", messages.SUCCESS)


@admin.register(Cdp)
class CdpAdmin(AdminDocumento):
    form = FormularioCdp
    # What a person looks for in the list, within 1280 px: which CDP, whose, what for, how much
    # is left, where it stands. The external number, project and other amounts are on its page.
    list_display = [
        "numero",
        "area_sigla",
        "objeto_corto",
        "valor_actual_pesos",
        "saldo_pesos",
        "estado",
        "expedicion",
    ]
    columnas_telefono = ("numero", "saldo_pesos", "estado")
    list_filter = ["estado", "vigencia", "area", "estado_expedicion"]
    # Only the «área» column reads a related row (the year is joined by the ordering alone).
    list_select_related = ["area"]
    search_fields = ["numero"]
    search_help_text = "Número, número externo, radicado u objeto (sin importar tildes)."
    autocomplete_fields = ["proyecto", "linea_paa"]
    inlines = [MovimientoCdpInline, RpInline]
    campos_alta = FormularioCdp.Meta.fields
    fieldsets_cambio = [
        (
            None,
            {
                "fields": [
                    *CABECERA,
                    "proyecto",
                    "area",
                    "dependencia",
                    "linea_paa",
                    "objeto",
                ]
            },
        ),
        ("Saldos", {"fields": SALDOS_CDP}),
        TRAMITE,
    ]

    def expedir_uno(self, cdp, externo, usuario):
        return services.expedir_cdp(cdp=cdp, numero_externo=externo, usuario=usuario)

    def anular_uno(self, cdp, razon, usuario):
        return services.anular_cdp(cdp=cdp, motivo=razon, usuario=usuario)


class MovimientoRpInline(MovimientoInline):
    model = MovimientoRp


class FormularioRp(FormularioDocumento):
    class Meta:
        model = Rp
        fields = [
            "cdp",
            "beneficiario",
            "documento_beneficiario",
            "objeto",
            "valor_inicial",
            "fecha_inicio",
            "fecha_fin",
            "numero_radicado",
        ]

    def crear(self) -> Rp:
        datos = self.cleaned_data
        return services.solicitar_rp(
            cdp=datos["cdp"],
            beneficiario=datos["beneficiario"],
            documento_beneficiario=datos.get("documento_beneficiario") or "",
            objeto=datos["objeto"],
            valor=datos["valor_inicial"],
            fecha_inicio=datos.get("fecha_inicio"),
            fecha_fin=datos.get("fecha_fin"),
            numero_radicado=datos.get("numero_radicado"),
            usuario=getattr(self, "usuario", None),
        )


@admin.register(Rp)
class RpAdmin(AdminDocumento):
    form = FormularioRp
    # Which RP, of which CDP, for whom, how much and how much is paid, where it stands.
    list_display = [
        "numero",
        "cdp",
        "beneficiario_corto",
        "valor_actual_pesos",
        "obligado_pesos",
        "estado",
        "expedicion",
    ]
    columnas_telefono = ("numero", "valor_actual_pesos", "estado")
    list_filter = ["estado", "vigencia", "cdp__area", "estado_expedicion"]
    list_select_related = ["cdp"]  # the «cdp» column (its number)
    search_fields = ["numero"]
    search_help_text = "Número, número externo, CDP, beneficiario u objeto."
    autocomplete_fields = ["cdp"]
    inlines = [MovimientoRpInline]
    campos_alta = FormularioRp.Meta.fields
    fieldsets_cambio = [
        (
            None,
            {
                "fields": [
                    *CABECERA,
                    "cdp",
                    "beneficiario",
                    "documento_beneficiario",
                    "objeto",
                    "fecha_inicio",
                    "fecha_fin",
                ]
            },
        ),
        ("Saldos", {"fields": SALDOS_RP}),
        TRAMITE,
    ]

    beneficiario_corto = columna_corta("beneficiario", "beneficiario", 40)

    def expedir_uno(self, rp, externo, usuario):
        return services.expedir_rp(rp=rp, numero_externo=externo, usuario=usuario)

    def anular_uno(self, rp, razon, usuario):
        return services.anular_rp(rp=rp, motivo=razon, usuario=usuario)


class FormularioMovimiento(FormularioServicio):
    valor = forms.DecimalField(
        max_digits=18,
        decimal_places=2,
        required=False,
        help_text="En una anulación se toma todo el valor actual.",
    )
    fecha = forms.DateField(required=False, help_text="Hoy si se deja vacía.")
    aplicar = forms.BooleanField(
        required=False, initial=True, help_text="Sin marcar, queda solicitado hasta aplicarlo."
    )

    def datos_comunes(self) -> dict:
        datos = self.cleaned_data
        return {
            "tipo": datos["tipo"],
            "valor": datos.get("valor"),
            "fecha": datos.get("fecha"),
            "descripcion": datos["descripcion"],
            "numero_radicado": datos.get("numero_radicado"),
            "aplicar": bool(datos.get("aplicar")),
            "usuario": getattr(self, "usuario", None),
        }


class FormularioMovimientoCdp(FormularioMovimiento):
    class Meta:
        model = MovimientoCdp
        fields = ["cdp", "tipo", "valor", "fecha", "descripcion", "numero_radicado"]

    def crear(self) -> MovimientoCdp:
        return services.registrar_movimiento_cdp(
            cdp=self.cleaned_data["cdp"], **self.datos_comunes()
        )


class FormularioMovimientoRp(FormularioMovimiento):
    class Meta:
        model = MovimientoRp
        fields = ["rp", "tipo", "valor", "fecha", "descripcion", "numero_radicado"]

    def crear(self) -> MovimientoRp:
        return services.registrar_movimiento_rp(rp=self.cleaned_data["rp"], **self.datos_comunes())


class AdminMovimiento(ConPesos, AdminServicio):
    action_form = FormularioAccionMotivo
    actions = ["aplicar", "rechazar"]
    list_filter = ["tipo", "estado"]
    date_hierarchy = "fecha"

    def get_fields(self, request, obj=None):
        if obj is None:
            return [*self.form.Meta.fields, "aplicar"]
        return [
            "numero",
            *["valor_pesos" if c == "valor" else c for c in self.form.Meta.fields],
            "estado",
            "motivo_rechazo",
            "registrado_por",
            "creado_en",
        ]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.get_fields(request, obj)

    aplicar = accion(
        "Aplicar los movimientos solicitados",
        lambda modeladmin, request, o: services.aplicar_movimiento(movimiento=o),
        "Aplicados",
    )
    rechazar = accion(
        "Rechazar (escriba el motivo)",
        lambda modeladmin, request, o: services.rechazar_movimiento(
            movimiento=o, motivo=motivo(request)
        ),
        "Rechazados",
    )

    def get_search_results(self, request, queryset, search_term):
        return admin.ModelAdmin.get_search_results(self, request, queryset, search_term)


@admin.register(MovimientoCdp)
class MovimientoCdpAdmin(AdminMovimiento):
    form = FormularioMovimientoCdp
    list_display = ["cdp", "numero", "tipo", "valor_pesos", "fecha", "estado"]
    list_select_related = ["cdp"]
    search_fields = ["cdp__numero", "cdp__numero_externo", "descripcion"]
    autocomplete_fields = ["cdp"]


@admin.register(MovimientoRp)
class MovimientoRpAdmin(AdminMovimiento):
    form = FormularioMovimientoRp
    list_display = ["rp", "numero", "tipo", "valor_pesos", "fecha", "estado"]
    list_select_related = ["rp"]
    search_fields = ["rp__numero", "rp__numero_externo", "descripcion"]
    autocomplete_fields = ["rp"]
