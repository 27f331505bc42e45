"""Demo: the websites with a contact form and a few messages in every state; safe to run twice."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from apps.notificaciones.models import MensajeContacto, SitioContacto
from hub.operacion.demo import ContextoDemo

# codigo: (nombre, correo de destino, orígenes del navegador)
SITIOS: dict[str, tuple[str, str, str]] = {
    "portal": (
        "Portal web institucional",
        "contacto@entidad.gov.co",
        "https://www.entidad.gov.co\nhttps://entidad.gov.co",
    ),
    "sede": ("Sede electrónica", "sede.electronica@entidad.gov.co", "https://sede.entidad.gov.co"),
    "transparencia": ("Transparencia y acceso a la información", "", "https://www.entidad.gov.co"),
}

# referencia: (sitio, horas atrás, nombre, correo, asunto, mensaje, estado)
MENSAJES: list[tuple[str, str, int, str, str, str, str, str]] = [
    (
        "CT-DEMO000001",
        "portal",
        2,
        "María Fernanda López",
        "mflopez@correo.com",
        "Horario de atención presencial",
        "Buenos días. Quisiera saber el horario de atención de la sede principal durante la "
        "temporada de vacaciones y si es necesario pedir cita previa.",
        "nuevo",
    ),
    (
        "CT-DEMO000002",
        "sede",
        5,
        "Julián Andrés Restrepo",
        "julian.restrepo@empresa.com.co",
        "No puedo descargar el certificado",
        "Al intentar descargar el certificado de la solicitud en la sede electrónica aparece un "
        "error y el archivo queda vacío. Probé con dos navegadores distintos.",
        "leido",
    ),
    (
        "CT-DEMO000003",
        "portal",
        30,
        "Ana Sofía Márquez",
        "asmarquez@universidad.edu.co",
        "Solicitud de información para trabajo de grado",
        "Cordial saludo. Estoy realizando mi trabajo de grado sobre contratación pública y "
        "quisiera saber dónde consultar el plan anual de adquisiciones de los últimos tres años.",
        "atendido",
    ),
    (
        "CT-DEMO000004",
        "transparencia",
        50,
        "Carlos Eduardo Niño",
        "cenino@veeduria.org",
        "Publicación de informes de gestión",
        "Desde la veeduría ciudadana solicitamos que se publique el informe de gestión del "
        "último trimestre en la sección de transparencia, como lo exige la Ley 1712 de 2014.",
        "nuevo",
    ),
    (
        "CT-DEMO000005",
        "sede",
        75,
        "Luisa Fernanda Ospina",
        "lfospina@correo.com",
        "Felicitación por la atención",
        "Quiero felicitar al equipo de atención al ciudadano por la rapidez con la que "
        "resolvieron mi solicitud. ¡Muchas gracias!",
        "atendido",
    ),
]


@transaction.atomic
def cargar(ctx: ContextoDemo) -> None:
    sitios = {}
    for codigo, (nombre, correo, origenes) in SITIOS.items():
        sitios[codigo], _ = SitioContacto.objects.get_or_create(
            codigo=codigo,
            defaults={"nombre": nombre, "correo_destino": correo, "origenes": origenes},
        )
    admin = ctx.objetos.get("usuarios", {}).get("admin")
    ahora = timezone.now()
    for referencia, sitio, horas, nombre, correo, asunto, texto, estado in MENSAJES:
        recibido = ahora - timedelta(hours=horas)
        atendido = estado == "atendido"
        MensajeContacto.objects.get_or_create(
            referencia=referencia,
            defaults={
                "sitio": sitios[sitio],
                "nombre": nombre,
                "correo": correo,
                "asunto": asunto,
                "mensaje": texto,
                "ip": "190.85.10.23",
                "user_agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0",
                "recibido_en": recibido,
                "leido": estado != "nuevo",
                "atendido": atendido,
                "atendido_en": recibido + timedelta(hours=3) if atendido else None,
                "atendido_por": admin if atendido else None,
            },
        )
    ctx.objetos["sitios_contacto"] = sitios
    ctx.salida["contacto"] = {"sitios": [c for c, s in sitios.items() if s.activo]}
    ctx.anotar(
        f"Contacto (POST): {ctx.base}/notificaciones/api/public/v1/contacto   "
        f"sitios: {', '.join(SITIOS)}"
    )
