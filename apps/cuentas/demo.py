"""Demo: areas, roles (groups with the interface's permissions) and people."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.db import transaction

from apps.cuentas.models import Area, User
from hub.operacion.demo import ContextoDemo

CONTRASENA_DEMO = "Demo-Hub-2026!"

AREAS = [
    ("DG", "Dirección General"),
    ("SAF", "Subdirección Administrativa y Financiera"),
    ("OAP", "Oficina Asesora de Planeación"),
    ("OTI", "Oficina de Tecnologías de la Información"),
    ("GTH", "Grupo de Talento Humano"),
    ("OAJ", "Oficina Asesora Jurídica"),
    ("OCI", "Oficina de Control Interno"),
]

# Every permission of the interface, plus ours (asistente.*, areas.todas, auditoria.ver).
ROLES: dict[str, list[str]] = {
    "Radicación": ["solicitudes.radicar"],
    "Bandeja de revisión": ["solicitudes.bandeja.ver"],
    "Jefatura de área": ["solicitudes.bandeja.ver", "solicitudes.radicar"],
    "Coordinación general": ["solicitudes.ver_todas", "solicitudes.bandeja.ver"],
    "Mesa de ayuda": ["solicitudes.bandeja.ver"],
    "Planeación presupuestal": [
        "presupuesto.planeacion.consultar",
        "presupuesto.reportes.consultar",
    ],
    "Financiera": [
        "presupuesto.planeacion.consultar",
        "presupuesto.reportes.consultar",
        "presupuesto.reportes.personalizados",
        "presupuesto.areas.todas",
    ],
    "Control interno": ["solicitudes.auditoria.ver", "solicitudes.ver_todas"],
    "Usuarios del asistente": ["mcp.asistente.usar"],
    "Administración del asistente": ["mcp.asistente.administrar"],
}

# username: (first, last, cargo, roles, areas (None = all), active)
PERSONAS: dict[str, tuple[str, str, str, list[str], list[str] | None, bool]] = {
    "completo": (
        "Camila",
        "Rojas Díaz",
        "Secretaria General",
        list(ROLES),
        None,
        True,
    ),
    "limitado": (
        "Andrés",
        "Gómez Peña",
        "Auxiliar administrativo",
        ["Radicación", "Usuarios del asistente"],
        ["GTH"],
        True,
    ),
    "sin_asistente": (
        "Lucía",
        "Martínez Ortiz",
        "Profesional universitaria",
        ["Jefatura de área"],
        ["OAJ"],
        True,
    ),
    "bloqueado": (
        "Jorge",
        "Salazar Ruiz",
        "Contratista (retirado)",
        ["Radicación", "Usuarios del asistente"],
        ["OTI"],
        False,
    ),
    "revisor": (
        "Paula",
        "Herrera León",
        "Profesional de revisión",
        ["Bandeja de revisión", "Usuarios del asistente"],
        ["SAF"],
        True,
    ),
    "jefe_oti": (
        "Mauricio",
        "Castro Vega",
        "Jefe de la OTI",
        ["Jefatura de área", "Mesa de ayuda", "Usuarios del asistente"],
        ["OTI"],
        True,
    ),
    "planeacion": (
        "Diana",
        "Téllez Ríos",
        "Profesional de planeación",
        ["Planeación presupuestal", "Radicación", "Usuarios del asistente"],
        ["OAP", "DG"],
        True,
    ),
    "financiera": (
        "Ricardo",
        "Mejía Soto",
        "Profesional financiero",
        ["Financiera", "Bandeja de revisión", "Usuarios del asistente"],
        ["SAF"],
        True,
    ),
    "auditora": (
        "Natalia",
        "Pardo Cruz",
        "Jefa de Control Interno",
        ["Control interno", "Usuarios del asistente"],
        ["OCI"],
        True,
    ),
}


def permisos(nombres: list[str]) -> list[Permission]:
    """Permissions by 'app_label.codename'; a missing one is an error, never silently skipped."""
    encontrados = []
    for nombre in nombres:
        app_label, codename = nombre.split(".", 1)
        try:
            encontrados.append(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
        except Permission.DoesNotExist:
            raise LookupError(f"permiso inexistente: {nombre}") from None
    return encontrados


@transaction.atomic
def cargar(ctx: ContextoDemo) -> None:
    areas = {}
    for sigla, nombre in AREAS:
        areas[sigla], _ = Area.objects.get_or_create(sigla=sigla, defaults={"nombre": nombre})
    # Roles and people are set up when created; a later run leaves an administrator's changes
    # (a role's permissions, someone's roles or areas) alone.
    roles = {}
    for nombre, nombres_permisos in ROLES.items():
        roles[nombre], creado = Group.objects.get_or_create(name=nombre)
        if creado:
            roles[nombre].permissions.set(permisos(nombres_permisos))

    usuarios = {}
    for username, (nombre, apellido, cargo, sus_roles, sus_areas, activo) in PERSONAS.items():
        usuario, creado = User.objects.get_or_create(
            username=username,
            defaults={
                "first_name": nombre,
                "last_name": apellido,
                "email": f"{username}@entidad.gov.co",
                "cargo": cargo,
                "is_active": activo,
            },
        )
        if creado:
            usuario.set_password(CONTRASENA_DEMO)
            usuario.save(update_fields=["password"])
            usuario.groups.set([roles[r] for r in sus_roles])
            usuario.areas.set(
                list(areas.values()) if sus_areas is None else [areas[a] for a in sus_areas]
            )
        usuarios[username] = usuario

    admin, creado = User.objects.get_or_create(
        username="admin",
        defaults={
            "first_name": "Administrador",
            "last_name": "del hub",
            "email": "admin@entidad.gov.co",
            "is_staff": True,
            "is_superuser": True,
        },
    )
    if creado:
        admin.set_password(CONTRASENA_DEMO)
        admin.save(update_fields=["password"])
    usuarios["admin"] = admin

    ctx.objetos.update(areas=areas, roles=roles, usuarios=usuarios)
    ctx.salida["usuarios"] = {u: {"username": u, "password": CONTRASENA_DEMO} for u in usuarios}
    ctx.anotar(f"Administración: {ctx.base}/admin/   usuario admin / {CONTRASENA_DEMO}")
    ctx.anotar(
        f"Ingreso del personal: {ctx.base}/cuentas/login/   perfil: {ctx.base}/cuentas/perfil/"
    )
    ctx.anotar("Personas de la demostración (usuario / contraseña):")
    ctx.anotar(f"  {'admin':<14} {CONTRASENA_DEMO}   administración del hub (superusuario)")
    for username, (nombre, apellido, cargo, sus_roles, _areas, activo) in PERSONAS.items():
        nota = "cuenta bloqueada, no puede ingresar" if not activo else ", ".join(sus_roles)
        if activo and len(sus_roles) == len(ROLES):
            nota = "todos los roles"
        elif activo and "Usuarios del asistente" not in sus_roles:
            nota += " (sin acceso al asistente)"
        ctx.anotar(f"  {username:<14} {CONTRASENA_DEMO}   {nombre} {apellido} ({cargo}): {nota}")
    ctx.anotar(f"Salud del servicio: {ctx.base}/salud/   (detalle para el personal con sesión)")
    ctx.anotar("Servicios:")
    for servicio in (
        "auth",
        "presupuesto",
        "solicitudes",
        "calidad",
        "archivos",
        "mcp",
        "notificaciones",
    ):
        ctx.anotar(
            f"  {servicio:<15} {ctx.base}/{servicio}   (ping: {ctx.base}/{servicio}/api/v1/ping)"
        )
