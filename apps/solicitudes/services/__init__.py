"""Writes of the requests domain: filing, workflow transitions, assignment, chat, help desk.

Every function takes keyword arguments only, runs in one transaction, locks the request row
before changing it (so two people acting at once cannot both pass the state check), and leaves
the request, its tasks and its history consistent or untouched. A caller that drew a form passes
the request's `version` it was drawn for (a comment, its form's `nonce`): a stale one acts on
nothing (SolicitudCambio), so the same form sent twice acts once. The state machine is in
`TRANSICIONES` (transiciones.py) and documented in docs/decisiones/solicitudes.md ("Máquina
de estados").
"""

from __future__ import annotations

from apps.solicitudes.services.chat import NONCE, comentar, puede_comentar, validar_comentario
from apps.solicitudes.services.ciclo import CAMBIO
from apps.solicitudes.services.firma import firmar, texto_de_firma
from apps.solicitudes.services.flujo import (
    acciones_permitidas,
    anular,
    aprobar,
    asignar,
    avanzar,
    corregir,
    devolver,
    es_ultima_etapa,
    marcar_atencion,
    puede_anular,
    puede_asignar,
    puede_corregir,
    puede_firmar,
    reanudar,
    rechazar,
    requiere_firma,
)
from apps.solicitudes.services.mantenimiento import reindexar_busqueda
from apps.solicitudes.services.radicacion import (
    SEVERIDADES,
    CasoMesaAyuda,
    crear_borrador,
    radicar,
    radicar_borrador,
    radicar_mesa_ayuda,
    validar_mesa_ayuda,
)
from apps.solicitudes.services.transiciones import PLAZO_CORRECCION_HORAS, TRANSICIONES
from apps.solicitudes.services.validacion import MAX_COMENTARIO

__all__ = [
    "CAMBIO",
    "MAX_COMENTARIO",
    "NONCE",
    "PLAZO_CORRECCION_HORAS",
    "SEVERIDADES",
    "TRANSICIONES",
    "CasoMesaAyuda",
    "acciones_permitidas",
    "anular",
    "aprobar",
    "asignar",
    "avanzar",
    "comentar",
    "corregir",
    "crear_borrador",
    "devolver",
    "es_ultima_etapa",
    "firmar",
    "marcar_atencion",
    "puede_anular",
    "puede_asignar",
    "puede_comentar",
    "puede_corregir",
    "puede_firmar",
    "radicar",
    "radicar_borrador",
    "radicar_mesa_ayuda",
    "reanudar",
    "rechazar",
    "reindexar_busqueda",
    "requiere_firma",
    "texto_de_firma",
    "validar_comentario",
    "validar_mesa_ayuda",
]
