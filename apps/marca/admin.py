"""Admin of the brand: one screen with colour pickers, the phrases one per line and the images."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from apps.marca import selectors, services
from apps.marca.imagenes import TAMANO_MAXIMO, validar_imagen
from apps.marca.models import CAMPOS_CONTENIDO, Marca, Slot


class SelectorColor(forms.TextInput):
    """The browser's colour picker (`<input type="color">`); it always sends #rrggbb."""

    input_type = "color"


class CampoFrases(forms.CharField):
    """A list of phrases edited as text, one per line; blank lines are dropped."""

    widget = forms.Textarea(attrs={"rows": 5, "cols": 80})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return "\n".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list):
            return value
        texto = super().to_python(value) or ""
        return [linea.strip() for linea in texto.splitlines() if linea.strip()]


AYUDA_IMAGEN = (
    f"SVG, PNG, ICO o WebP de hasta {TAMANO_MAXIMO // 1024} KB. El formato se reconoce por el "
    "contenido del archivo; los SVG se limpian (sin scripts ni referencias externas)."
)


class MarcaForm(forms.ModelForm):
    login_bullets = CampoFrases(
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
            "color_primario": SelectorColor(),
            "color_acento": SelectorColor(),
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


@admin.register(Marca)
class MarcaAdmin(admin.ModelAdmin):
    form = MarcaForm
    readonly_fields = ("vista_logo", "vista_isotipo", "vista_favicon", "version")

    class Media:
        css = {"all": ("marca/admin.css",)}

    fieldsets = (
        ("Identidad", {"fields": ("modo", "nombre", "tagline", "nombre_entidad", "version")}),
        ("Colores", {"fields": ("color_primario", "color_acento")}),
        ("Pantalla de ingreso", {"fields": ("login_titulo", "login_bullets")}),
        ("Contacto publicado", {"fields": ("contacto_correo", "contacto_sitio")}),
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

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the single row is created on first read

    def has_delete_permission(self, request: HttpRequest, obj: Marca | None = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        """There is exactly one brand: go straight to its form."""
        marca = Marca.cargar()
        return HttpResponseRedirect(reverse("admin:marca_marca_change", args=[marca.pk]))

    def save_model(self, request: HttpRequest, obj: Marca, form: MarcaForm, change: bool) -> None:
        services.actualizar_marca(cambios={c: getattr(obj, c) for c in CAMPOS_CONTENIDO})
        for slot in Slot.values:
            if form.cleaned_data.get(f"{slot}_quitar"):
                services.quitar_imagen(slot=slot)
            elif form.cleaned_data.get(f"{slot}_archivo"):
                services.guardar_imagen(slot=slot, datos=form.cleaned_data[f"{slot}_archivo"])
