"""Pieces shared by the budget models: amounts, the area visibility rule, bulk creation."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models

from apps.cuentas.models import User

PERMISO_TODAS = "presupuesto.areas.todas"
CERO = Decimal("0.00")


def campo_valor(verbose: str, **kwargs) -> models.DecimalField:
    """An amount in pesos: 18 digits, 2 decimals (never a float)."""
    kwargs.setdefault("default", CERO)
    kwargs.setdefault("validators", [MinValueValidator(CERO)])
    return models.DecimalField(verbose, max_digits=18, decimal_places=2, **kwargs)


def usuario_activo(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def areas_de(user) -> models.QuerySet:
    """Subquery with the ids of the user's areas (no query of its own)."""
    return User.areas.through.objects.filter(user_id=user.pk).values("area_id")


def ve_todas_las_areas(user) -> bool:
    return usuario_activo(user) and user.has_perm(PERMISO_TODAS)


class VisiblesQuerySet(models.QuerySet):
    """Rows of the user's areas (or every row with presupuesto.areas.todas); none if inactive."""

    ruta_area = "area"

    def visibles_para(self, user):
        if not usuario_activo(user):
            return self.none()
        if user.has_perm(PERMISO_TODAS):
            return self
        return self.filter(**{f"{self.ruta_area}__in": areas_de(user)})


class ConNumeroQuerySet(VisiblesQuerySet):
    """Documents found by their own number or the financial system's (case-insensitive)."""

    def por_numero_del_hub(self, numero: str):
        """Exact match on the hub's own `numero` (unique: at most one row, no order needed)."""
        buscado = (numero or "").strip().upper()
        if not buscado:
            return self.none()
        return self.filter(numero=buscado).order_by()

    def por_numero(self, numero: str):
        """Exact match on `numero` or `numero_externo`; numbers are stored upper-case."""
        buscado = (numero or "").strip().upper()
        if not buscado:
            return self.none()
        return self.filter(models.Q(numero=buscado) | models.Q(numero_externo=buscado)).order_by(
            models.Case(models.When(numero=buscado, then=0), default=1),
            "-vigencia__anio",
            "-id",
        )


class ConBusquedaManager(models.Manager):
    def crear_en_bloque(self, objetos: list, lote: int = 2000) -> list:
        """bulk_create that fills the search column first (bulk inserts skip `save()`)."""
        for objeto in objetos:
            objeto.preparar_busqueda()
        return self.bulk_create(objetos, batch_size=lote)
