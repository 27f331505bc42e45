"""Admin of the brand: one screen with colours (hex and swatch, contrast check), the phrases one
per line, the images, a live preview of the sign-in page and "restore defaults"."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, resolve, reverse
from django.utils.html import format_html

from apps.marca import selectors, services
from apps.marca.colores import BLANCO, CONTRASTE_MINIMO, contraste, enlace_legible
from apps.marca.context_processors import colores_derivados, marca_para_plantilla
from apps.marca.imagenes import TAMANO_MAXIMO, validar_imagen
from apps.marca.models import (
    CAMPOS_CONTENIDO,
    DEFAULTS,
    MAX_BULLETS,
    MAX_LARGO_BULLET,
    Marca,
    Modo,
    Slot,
    muestra_credito_hub,
)
from hub.administracion.formularios import CampoLineas
from hub.administracion.sitio import AdminUnico
from hub.http import seguridad

_HEX = re.compile(r"^#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})$")
MENSAJE_COLOR = "Use un color hexadecimal de la forma #RRGGBB."


def normalizar_color(texto: str) -> str | None:
    """'#1f4e79', '1F4E79' or '#abc' -> '#1F4E79' / '#AABBCC'; None if it is not a colour."""
    coincide = _HEX.match((texto or "").strip())
    if coincide is None:
        return None
    cifras = coincide.group(1)
    if len(cifras) == 3:
        cifras = "".join(c * 2 for c in cifras)
    return "#" + cifras.upper()


class SelectorColor(forms.TextInput):
    """The hex value, editable, beside the browser's swatch (marca/editor.js keeps them equal)."""

    template_name = "marca/widgets/color.html"

    def __init__(self, attrs=None):
        base = {"size": 8, "maxlength": 7, "spellcheck": "false", "autocomplete": "off"}
        super().__init__({**base, **(attrs or {})})

    def get_context(self, name, value, attrs):
        contexto = super().get_context(name, value, attrs)
        contexto["muestra"] = (normalizar_color(str(value or "")) or "#000000").lower()
        return contexto


class CampoColor(forms.CharField):
    widget = SelectorColor

    def to_python(self, value: Any) -> str:
        texto = super().to_python(value)
        if not texto:
            return texto
        color = normalizar_color(texto)
        if color is None:
            raise ValidationError(MENSAJE_COLOR, code="color")
        return color


AYUDA_IMAGEN = (
    f"SVG, PNG, ICO o WebP de hasta {TAMANO_MAXIMO // 1024} KB. El formato se reconoce por el "
    "contenido del archivo; los SVG se limpian (sin scripts ni referencias externas)."
)


class MarcaForm(forms.ModelForm):
    color_primario = CampoColor(
        label="Color primario",
        help_text="Barra superior, botones, enlaces y títulos. Debe leerse bien sobre blanco.",
    )
    color_acento = CampoColor(
        label="Color de acento",
        help_text="Detalles: viñetas, contornos de foco, botones de acento.",
    )
    login_bullets = CampoLineas(
        label="Frases de la pantalla de ingreso",
        required=False,
        help_text="Una frase por línea (máximo 8, de hasta 160 caracteres cada una).",
    )
    contacto_sitio = forms.URLField(
        label="Sitio web de contacto", required=False, max_length=200, assume_scheme="https"
    )
    logo_archivo = forms.FileField(label="Subir logo", required=False, help_text=AYUDA_IMAGEN)
    logo_quitar = forms.BooleanField(label="Quitar el logo", required=False)
    isotipo_archivo = forms.FileField(label="Subir isotipo", required=False, help_text=AYUDA_IMAGEN)
    isotipo_quitar = forms.BooleanField(label="Quitar el isotipo", required=False)
    favicon_archivo = forms.FileField(label="Subir favicon", required=False, help_text=AYUDA_IMAGEN)
    favicon_quitar = forms.BooleanField(label="Quitar el favicon", required=False)

    class Meta:
        model = Marca
        fields = list(CAMPOS_CONTENIDO)
        ancho = {"class": "vTextField marca-texto-ancho"}  # width in marca/admin.css (CSP)
        widgets = {
            "nombre": forms.TextInput(attrs=ancho),
            "tagline": forms.TextInput(attrs=ancho),
            "nombre_entidad": forms.TextInput(attrs=ancho),
            "login_titulo": forms.TextInput(attrs=ancho),
        }

    def _leer_imagen(self, slot: str) -> bytes | None:
        archivo = self.cleaned_data.get(f"{slot}_archivo")
        if not archivo:
            return None
        if archivo.size > TAMANO_MAXIMO:
            raise ValidationError(
                f"El archivo pesa {archivo.size // 1024} KB; el máximo es "
                f"{TAMANO_MAXIMO // 1024} KB."
            )
        datos = archivo.read()
        validar_imagen(datos)  # clear Spanish message on a wrong type or a damaged file
        return datos

    def clean_logo_archivo(self) -> bytes | None:
        return self._leer_imagen("logo")

    def clean_isotipo_archivo(self) -> bytes | None:
        return self._leer_imagen("isotipo")

    def clean_favicon_archivo(self) -> bytes | None:
        return self._leer_imagen("favicon")

    def clean(self) -> dict[str, Any]:
        datos = super().clean()
        for slot in Slot.values:
            if datos.get(f"{slot}_archivo") and datos.get(f"{slot}_quitar"):
                self.add_error(
                    f"{slot}_quitar", "Elija subir una imagen nueva o quitarla, no ambas."
                )
        return datos


def _vista_previa(slot: str) -> str:
    publica = selectors.marca_publica()
    info = publica.imagenes.get(slot)
    if info is None:
        return "Sin imagen"
    # Always through the endpoint (CSP, cleaned SVG), never inlined into the admin page.
    # A class, not a style attribute: the pages' CSP refuses inline styles (marca/admin.css).
    return format_html(
        '<img src="{}" alt="{}" class="marca-vista-previa"> <span>{}</span>',
        selectors.url_imagen(None, slot, publica.version),
        Slot(slot).label,
        info.tipo.upper(),
    )


def _decimal(numero: float) -> str:
    return f"{numero:.1f}".replace(".", ",")


def aviso_contraste(color: str) -> str | None:
    """A warning when the primary colour is too light for text and links on white."""
    relacion = contraste(color, BLANCO)
    if relacion >= CONTRASTE_MINIMO:
        return None
    return (
        f"El color primario {color} se lee poco sobre blanco (contraste {_decimal(relacion)}:1; "
        f"se recomienda al menos {_decimal(CONTRASTE_MINIMO)}:1). Los enlaces y los títulos usarán "
        f"{enlace_legible(color)}, un tono más oscuro del mismo color."
    )


# Fields the live preview takes from the form (unsaved values), each checked like the form does.
CAMPOS_VISTA_PREVIA = ("modo", "nombre", "tagline", "nombre_entidad", "login_titulo")


def formulario_de_ingreso() -> forms.Form:
    """An empty form of the sign-in page, taken from its own view through its URL: the accounts
    app stands above the brand, which imports none of it."""
    vista = resolve(reverse(settings.LOGIN_URL)).func.view_class
    return vista.authentication_form()


def marca_de_vista_previa(request: HttpRequest) -> dict[str, Any]:
    """The current brand for templates, with the editor's unsaved values from the query string."""
    datos = marca_para_plantilla(request)
    for campo in CAMPOS_VISTA_PREVIA:
        if campo in request.GET:
            valor = request.GET[campo].strip()[: Marca._meta.get_field(campo).max_length]
            if campo == "modo" and valor not in Modo.values:
                continue
            datos[campo] = valor or (DEFAULTS[campo] if campo in ("nombre", "login_titulo") else "")
    if "login_bullets" in request.GET:
        frases = [f.strip() for f in request.GET["login_bullets"].splitlines() if f.strip()]
        datos["login_bullets"] = [f[:MAX_LARGO_BULLET] for f in frases[:MAX_BULLETS]]
    for campo in ("color_primario", "color_acento"):
        color = normalizar_color(request.GET.get(campo, ""))
        if color is not None:
            datos[campo] = color
    datos.update(colores_derivados(datos["color_primario"], datos["color_acento"]))
    datos["con_tecnologia_hub"] = muestra_credito_hub(datos["modo"])
    return datos


@admin.register(Marca)
class MarcaAdmin(AdminUnico):
    form = MarcaForm
    change_form_template = "admin/marca/marca/change_form.html"
    readonly_fields = ("vista_logo", "vista_isotipo", "vista_favicon", "version", "vista_previa")

    class Media:
        css = {"all": ("marca/admin.css",)}
        js = ("marca/editor.js",)

    fieldsets = (
        ("Identidad", {"fields": ("modo", "nombre", "tagline", "nombre_entidad", "version")}),
        ("Colores", {"fields": ("color_primario", "color_acento")}),
        ("Pantalla de ingreso", {"fields": ("login_titulo", "login_bullets", "vista_previa")}),
        ("Contacto publicado", {"fields": ("contacto_correo", "contacto_sitio")}),
        (
            "Mesa de ayuda del personal",
            {
                "fields": ("mesa_ayuda_correo", "articulo_entidad"),
                "description": "Para el personal que no puede ingresar; no se publica.",
            },
        ),
        ("Logo", {"fields": ("vista_logo", "logo_archivo", "logo_quitar")}),
        ("Isotipo", {"fields": ("vista_isotipo", "isotipo_archivo", "isotipo_quitar")}),
        ("Favicon", {"fields": ("vista_favicon", "favicon_archivo", "favicon_quitar")}),
    )

    @admin.display(description="Vista previa")
    def vista_logo(self, obj: Marca) -> str:
        return _vista_previa("logo")

    @admin.display(description="Vista previa")
    def vista_isotipo(self, obj: Marca) -> str:
        return _vista_previa("isotipo")

    @admin.display(description="Vista previa")
    def vista_favicon(self, obj: Marca) -> str:
        return _vista_previa("favicon")

    @admin.display(description="Versión publicada (ETag)")
    def version(self, obj: Marca) -> str:
        return selectors.marca_publica().version

    @admin.display(description="Vista previa")
    def vista_previa(self, obj: Marca) -> str:
        # The real sign-in page, redrawn by marca/editor.js with the values being typed.
        return format_html(
            '<iframe class="marca-vista-ingreso" src="{}" title="Vista previa de la pantalla de '
            'ingreso" data-vista-previa loading="lazy"></iframe>'
            '<span class="help">Se actualiza mientras escribe; las imágenes nuevas se ven al '
            "guardar.</span>",
            reverse("admin:marca_marca_vista_previa"),
        )

    def save_model(self, request: HttpRequest, obj: Marca, form: MarcaForm, change: bool) -> None:
        services.actualizar_marca(cambios={c: getattr(obj, c) for c in CAMPOS_CONTENIDO})
        for slot in Slot.values:
            if form.cleaned_data.get(f"{slot}_quitar"):
                services.quitar_imagen(slot=slot)
            elif form.cleaned_data.get(f"{slot}_archivo"):
                services.guardar_imagen(slot=slot, datos=form.cleaned_data[f"{slot}_archivo"])
        aviso = aviso_contraste(obj.color_primario)
        if aviso:
            messages.warning(request, aviso)

    def get_urls(self):
        propias = [
            path(
                "vista-previa/",
                self.admin_site.admin_view(self.vista_previa_view),
                name="marca_marca_vista_previa",
            ),
            path(
                "restaurar/",
                self.admin_site.admin_view(self.restaurar_view),
                name="marca_marca_restaurar",
            ),
        ]
        return propias + super().get_urls()

    def vista_previa_view(self, request: HttpRequest) -> HttpResponse:
        """The sign-in page drawn with the editor's unsaved values (inside the editor only)."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        contexto = {
            "marca": marca_de_vista_previa(request),
            "form": formulario_de_ingreso(),
            "vista_previa": True,
        }
        response = TemplateResponse(request, "cuentas/login.html", contexto)
        # The editor frames this page: the policy allows our own pages as ancestors, no others.
        response["Content-Security-Policy"] = seguridad.politica(request.csp_nonce).replace(
            "frame-ancestors 'none'", "frame-ancestors 'self'"
        )
        response["X-Frame-Options"] = "SAMEORIGIN"
        response["Cache-Control"] = "no-store"
        return response

    def restaurar_view(self, request: HttpRequest) -> HttpResponse:
        """GET asks to confirm; POST puts back the hub's own brand (and the images, if asked)."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            quitar = request.POST.get("quitar_imagenes") == "si"
            services.restaurar_marca(quitar_imagenes=quitar)
            self.message_user(
                request,
                "Se restauraron los valores por defecto de la marca"
                + (" y se quitaron sus imágenes." if quitar else "; las imágenes se conservan."),
                messages.SUCCESS,
            )
            return HttpResponseRedirect(reverse("admin:marca_marca_change", args=[1]))
        contexto = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Restaurar los valores por defecto",
            "subtitle": None,
            "defaults": DEFAULTS,
        }
        return TemplateResponse(request, "admin/marca/marca/restaurar.html", contexto)
