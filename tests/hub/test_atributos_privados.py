"""No private attribute of Django's or a library's objects in our code (issue 37, item 1).

Every `obj._name` in apps/, hub/, bench/ and gunicorn.conf.py must name something our own code
defines (a function, class or module-level name; an attribute our code sets, on `self` or as
its own mark on another object; a keyword that names an annotation, `annotate(_total=...)`; a
`setattr` by name), or one of the documented private names below.
tests/hub/test_nombres_privados.py checks imports; this checks attribute access, which an import
test cannot see (`cache._cache._pools`), and a class of ours replacing a private member of a
Django or library base class (`RedisCache._cache`), which depends on it just the same.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]

# Private by name, public by documentation: each with where it is documented.
DOCUMENTADOS = {
    # Django, "Model _meta API" (docs/ref/models/meta): the documented way to introspect a model.
    "_meta": "Django: Model _meta API",
    # Django, "Model instance reference", section "The _state attribute" (adding, db).
    "_state": "Django: Model._state",
    # Django, "Managers": "Using managers for related object access" names Model._base_manager.
    "_base_manager": "Django: Model._base_manager",
    # Django, "Managers": Model._default_manager.
    "_default_manager": "Django: Model._default_manager",
    # Python, os module: os._exit(n) ("exit the process ... without calling cleanup handlers").
    "_exit": "Python: os._exit",
    # Python, collections.namedtuple: _replace, _asdict, _fields, _make are its documented API.
    "_replace": "Python: namedtuple._replace",
    "_asdict": "Python: namedtuple._asdict",
    "_fields": "Python: namedtuple._fields",
}

# Undocumented private names still reached: none (issue 37 emptied the list; it only shrinks).
PENDIENTES: dict[str, str] = {}


# Names Django's own objects carry that our code writes: a write is no definition of ours.
DE_BIBLIOTECAS = {
    "_current_scheme_host",
    "_dont_enforce_csrf_checks",
    "_has_been_logged",
    "_mutable",
    "_stream",
    "_pools",
    "_client",
}


def _archivos() -> list[Path]:
    carpetas = [RAIZ / "apps", RAIZ / "hub", RAIZ / "bench"]
    todos = [p for c in carpetas for p in c.rglob("*.py") if "migrations" not in p.parts]
    return [*todos, RAIZ / "gunicorn.conf.py"]


def _privado(nombre: str) -> bool:
    return nombre.startswith("_") and not nombre.startswith("__")


def _definidos(arbol: ast.AST) -> set[str]:
    """Names this module defines (see the module's docstring)."""
    nombres: set[str] = set()
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            nombres.add(nodo.name)
        elif isinstance(nodo, ast.Name) and isinstance(nodo.ctx, ast.Store):
            nombres.add(nodo.id)
        elif isinstance(nodo, ast.Attribute) and isinstance(nodo.ctx, ast.Store):
            nombres.add(nodo.attr)  # our own mark on an object (`request._hub_cuenta = ...`)
        elif isinstance(nodo, ast.keyword) and nodo.arg:
            nombres.add(nodo.arg)
        elif isinstance(nodo, ast.Call) and len(nodo.args) >= 2:
            funcion = nodo.func
            nombre = getattr(funcion, "id", None) or getattr(funcion, "attr", None)
            argumento = nodo.args[1]
            if nombre in ("setattr", "__setattr__") and isinstance(argumento, ast.Constant):
                nombres.add(str(argumento.value))
        elif isinstance(nodo, ast.alias):
            nombres.add((nodo.asname or nodo.name).split(".")[0])
    return nombres


def _accesos() -> tuple[dict[str, list[str]], set[str]]:
    accesos: dict[str, list[str]] = defaultdict(list)
    definidos: set[str] = set()
    for archivo in _archivos():
        arbol = ast.parse(archivo.read_text(), filename=str(archivo))
        definidos |= _definidos(arbol)
        for nodo in ast.walk(arbol):
            if isinstance(nodo, ast.Attribute) and _privado(nodo.attr):
                accesos[nodo.attr].append(f"{archivo.relative_to(RAIZ)}:{nodo.lineno}")
    return accesos, definidos


def test_no_private_attribute_of_django_or_a_library_is_reached():
    accesos, definidos = _accesos()
    ajenos = {
        nombre: lugares
        for nombre, lugares in accesos.items()
        if (nombre not in definidos or nombre in DE_BIBLIOTECAS)
        and nombre not in DOCUMENTADOS
        and nombre not in PENDIENTES
    }
    assert ajenos == {}


def test_the_pending_list_only_names_what_is_still_reached():
    accesos, _ = _accesos()
    assert {n for n in PENDIENTES if n not in accesos} == set()


def test_the_cache_subsystem_reaches_no_private_attribute_of_djangos_redis_backend():
    accesos, _ = _accesos()
    prohibidos = {
        "_pool_options",
        "_client",
        "_get_connection_pool",
        "_serializer",
        "_class",
        "_pools",
    }
    assert {n: accesos[n] for n in prohibidos if n in accesos} == {}


def test_the_check_sees_an_access_to_a_name_no_module_of_ours_defines():
    arbol = ast.parse("def f(cache):\n    return cache._cache._pools\n")
    vistos = {n.attr for n in ast.walk(arbol) if isinstance(n, ast.Attribute)}
    assert vistos - _definidos(arbol) == {"_cache", "_pools"}


def _privados_en_el_cuerpo(clase: ast.ClassDef) -> set[str]:
    """Private names a class statement itself defines (methods and assignments in its body)."""
    nombres = set()
    for nodo in clase.body:
        if isinstance(nodo, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            nombres.add(nodo.name)
        elif isinstance(nodo, ast.Assign | ast.AnnAssign):
            objetivos = nodo.targets if isinstance(nodo, ast.Assign) else [nodo.target]
            nombres |= {t.id for t in objetivos if isinstance(t, ast.Name)}
    return {n for n in nombres if _privado(n) and not n.endswith("_")}  # _x_: enum's own API


def _clases_nuestras() -> list[tuple[type, set[str]]]:
    """Every top-level class of our modules, imported, with the private names its body defines."""
    import importlib

    clases = []
    for archivo in _archivos():
        if archivo.name == "gunicorn.conf.py":
            continue
        arbol = ast.parse(archivo.read_text())
        propias = {
            c.name: _privados_en_el_cuerpo(c) for c in arbol.body if isinstance(c, ast.ClassDef)
        }
        if not any(propias.values()):
            continue
        modulo = ".".join(archivo.relative_to(RAIZ).with_suffix("").parts).removesuffix(".__init__")
        cargado = importlib.import_module(modulo)
        clases += [(getattr(cargado, n), nombres) for n, nombres in propias.items() if nombres]
    return clases


def _ajena(clase: type) -> bool:
    return not clase.__module__.startswith(("apps.", "hub.", "bench.", "tests."))


def test_no_class_of_ours_overrides_a_private_member_of_a_django_or_library_class():
    """Replacing a library's private method (RedisCache._cache, QuerySet._raw_delete) depends on
    it as much as reading it does."""
    reemplazos = sorted(
        f"{clase.__module__}.{clase.__qualname__}.{nombre} (de {base.__module__}.{base.__name__})"
        for clase, nombres in _clases_nuestras()
        for nombre in nombres
        if nombre not in DOCUMENTADOS
        for base in clase.__mro__[1:]
        if _ajena(base) and nombre in vars(base)
    )
    assert reemplazos == []


def test_the_override_check_sees_a_replaced_private_method():
    from django.core.cache.backends.redis import RedisCache

    class Planta(RedisCache):
        def _cache(self):
            return None

    assert [b for b in Planta.__mro__[1:] if _ajena(b) and "_cache" in vars(b)] == [RedisCache]
