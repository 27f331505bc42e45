from __future__ import annotations

from django.urls import path

from apps.presupuesto.views import documentos, impresos, listas, reportes

app_name = "presupuesto"
urlpatterns = [
    path("cdp/", listas.cdps, name="lista_cdp"),
    path("rp/", listas.rps, name="lista_rp"),
    path("paa/", listas.lineas_paa, name="lista_paa"),
    path("cdp/<int:pk>", documentos.cdp, name="cdp"),
    path("rp/<int:pk>", documentos.rp, name="rp"),
    path("paa/<int:pk>", documentos.linea_paa, name="linea_paa"),
    *[
        ruta
        for formato, sufijo in (("html", "imprimir"), ("pdf", "pdf"))
        for ruta in (
            path(
                f"cdp/<int:pk>/{sufijo}", impresos.cdp, {"formato": formato}, name=f"cdp_{formato}"
            ),
            path(
                f"cdp/<int:pk>/movimientos/<int:numero>/{sufijo}",
                impresos.cdp,
                {"formato": formato},
                name=f"movimiento_cdp_{formato}",
            ),
            path(f"rp/<int:pk>/{sufijo}", impresos.rp, {"formato": formato}, name=f"rp_{formato}"),
            path(
                f"rp/<int:pk>/movimientos/<int:numero>/{sufijo}",
                impresos.rp,
                {"formato": formato},
                name=f"movimiento_rp_{formato}",
            ),
            path(
                f"paa/<int:pk>/{sufijo}",
                impresos.linea_paa,
                {"formato": formato},
                name=f"linea_paa_{formato}",
            ),
        )
    ],
    path("reportes/constructor", reportes.constructor, name="constructor"),
]
