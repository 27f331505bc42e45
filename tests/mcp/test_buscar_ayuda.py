"""buscar_ayuda: BM25 over the hub's own manuals, cited by manual + section, with `suficiente`."""

from __future__ import annotations

import pytest

from apps.mcp import ayuda
from hub.herramientas.registro import registro
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador

pytestmark = pytest.mark.django_db

CAMPOS_ITEM = {"manual", "archivo", "seccion", "fragmento", "puntaje"}
MANUAL_ASISTENTE = "Usar el asistente y los tokens personales"


def _ayuda(client, cabeceras, **argumentos):
    return llamar(client, "buscar_ayuda", argumentos, **cabeceras)


_valida = validador("buscar_ayuda")


@pytest.fixture
def manuales_propios(settings, tmp_path):
    """Point the search at a directory of test manuals (and rebuild the index around it)."""
    settings.HUB_MANUALES_DIR = tmp_path
    ayuda.olvidar()
    yield tmp_path
    ayuda.olvidar()


# --- real questions over the real manuals ---------------------------------------------------


def test_how_to_create_a_personal_token_cites_the_assistant_manual(client, como_limitado):
    r = _ayuda(client, como_limitado, consulta="¿cómo creo un token personal?")
    datos = _valida(r)
    assert datos["consulta"] == "¿cómo creo un token personal?"
    assert datos["suficiente"] is True
    assert datos["total"] == len(datos["resultados"]) == 4
    primero = datos["resultados"][0]
    assert set(primero) == CAMPOS_ITEM
    assert primero["manual"] == MANUAL_ASISTENTE
    assert primero["archivo"] == "asistente-y-tokens-personales.md"
    assert primero["seccion"] == "Crear un token personal"
    assert "/cuentas/perfil/" in primero["fragmento"]
    assert "Se muestra una sola vez" in primero["fragmento"]
    assert isinstance(primero["puntaje"], float) and primero["puntaje"] > 0
    puntajes = [x["puntaje"] for x in datos["resultados"]]
    assert puntajes == sorted(puntajes, reverse=True)
    resumen = r.resultado["content"][0]["text"]
    assert f"«{MANUAL_ASISTENTE}» › Crear un token personal" in resumen


def test_what_the_balance_of_a_cdp_means_comes_from_the_cdp_manual(client, como_limitado):
    datos = _valida(_ayuda(client, como_limitado, consulta="qué significa saldo de un CDP"))
    primero = datos["resultados"][0]
    assert primero["archivo"] == "cdp-y-rp.md"
    assert primero["manual"] == (
        "Certificados de disponibilidad (CDP) y registros presupuestales (RP)"
    )
    assert primero["seccion"] == "Qué es un CDP"
    assert "**saldo** = valor actual − comprometido" in primero["fragmento"]
    assert datos["suficiente"] is True


@pytest.mark.parametrize(
    ("consulta", "archivo", "seccion"),
    [
        ("revocar un token que perdí", "asistente-y-tokens-personales.md", "Revocar un token"),
        ("cómo verifico una firma con el celular", "firmas-y-verificacion.md", None),
        ("severidad bloqueante en la mesa de ayuda", "mesa-de-ayuda.md", "Severidad"),
        ("qué es una tarea vencida", "bandeja-y-tareas.md", "Vencimientos"),
        ("buscar por el código anterior de un documento", "documentos-de-calidad.md", None),
    ],
)
def test_other_real_questions_land_in_the_right_manual(
    client, como_limitado, consulta, archivo, seccion
):
    datos = _valida(_ayuda(client, como_limitado, consulta=consulta))
    primero = datos["resultados"][0]
    assert primero["archivo"] == archivo
    if seccion is not None:
        assert primero["seccion"] == seccion
    assert datos["suficiente"] is True


def test_nonsense_finds_nothing_and_is_not_sufficient(client, como_limitado):
    r = _ayuda(client, como_limitado, consulta="xyzzy plugh frobnicate")
    datos = _valida(r)
    assert datos == {
        "consulta": "xyzzy plugh frobnicate",
        "suficiente": False,
        "total": 0,
        "resultados": [],
    }
    assert "no tratan" in r.resultado["content"][0]["text"]


def test_a_question_made_only_of_stopwords_finds_nothing(client, como_limitado):
    datos = _valida(_ayuda(client, como_limitado, consulta="¿qué es eso de la?"))
    assert datos["resultados"] == []
    assert datos["suficiente"] is False


def test_hits_for_one_word_of_a_foreign_question_are_not_sufficient(client, como_limitado):
    """The token sections match, but most words of the question appear nowhere."""
    r = _ayuda(client, como_limitado, consulta="receta de arepas con queso y token")
    datos = _valida(r)
    assert datos["resultados"][0]["archivo"] == "asistente-y-tokens-personales.md"
    assert datos["resultados"][0]["puntaje"] >= ayuda.UMBRAL_PUNTAJE
    assert datos["suficiente"] is False
    assert "no cubren bien la pregunta" in r.resultado["content"][0]["text"]


def test_accents_and_case_do_not_change_the_answer(client, como_limitado):
    a = _valida(_ayuda(client, como_limitado, consulta="CÓMO VERIFICO UNA FIRMA CON EL CELULAR"))
    b = _valida(_ayuda(client, como_limitado, consulta="como verifico una firma con el celular"))
    assert a["resultados"] == b["resultados"]
    assert a["suficiente"] == b["suficiente"] is True


def test_plural_and_singular_meet(client, como_limitado):
    plural = _valida(_ayuda(client, como_limitado, consulta="tokens personales"))
    singular = _valida(_ayuda(client, como_limitado, consulta="token personal"))
    assert plural["resultados"] == singular["resultados"]


def test_max_caps_the_fragments_and_defaults_to_four(client, como_limitado):
    consulta = "solicitud"
    assert _valida(_ayuda(client, como_limitado, consulta=consulta))["total"] == 4
    assert _valida(_ayuda(client, como_limitado, consulta=consulta, max=1))["total"] == 1
    assert _valida(_ayuda(client, como_limitado, consulta=consulta, max=5))["total"] == 5


def test_invisible_characters_of_the_question_are_removed(client, como_limitado):
    datos = _valida(_ayuda(client, como_limitado, consulta="token\u200b personal\u202e"))
    assert datos["consulta"] == "token personal"


# --- arguments, access ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argumentos",
    [
        {"consulta": "ab"},
        {"consulta": "a" * 201},
        {"consulta": "token", "max": 0},
        {"consulta": "token", "max": 6},
        {"consulta": "token", "max": "cuatro"},
        {"consulta": ["token", "personal"]},
        {},
        {"consulta": "token", "usuario": "otro"},
    ],
)
def test_out_of_bounds_arguments_are_datos_invalidos(client, como_limitado, argumentos):
    datos = error_herramienta(_ayuda(client, como_limitado, **argumentos), "DATOS_INVALIDOS")
    assert datos["campos"]


@pytest.mark.parametrize(
    "argumentos",
    [{"consulta": "cdp"}, {"consulta": "a" * 200}, {"consulta": "rp rp", "max": 1}],
)
def test_the_bounds_themselves_are_accepted(client, como_limitado, argumentos):
    _valida(_ayuda(client, como_limitado, **argumentos))


def test_the_schema_in_tools_list_states_the_bounds(client, como_limitado):
    herramientas = {
        t["name"]: t for t in rpc(client, "tools/list", **como_limitado).resultado["tools"]
    }
    esquema = herramientas["buscar_ayuda"]["inputSchema"]
    assert esquema["required"] == ["consulta"]
    assert esquema["properties"]["consulta"]["minLength"] == 3
    assert esquema["properties"]["consulta"]["maxLength"] == 200
    assert esquema["properties"]["max"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 5,
        "default": 4,
        "description": "Cuántos fragmentos devolver como máximo.",
    }
    assert herramientas["buscar_ayuda"]["annotations"]["readOnlyHint"] is True
    assert (
        herramientas["buscar_ayuda"]["outputSchema"]
        == registro.obtener("buscar_ayuda").esquema_salida
    )


def test_the_api_key_alone_gets_sin_identidad(client, clave):
    error_herramienta(_ayuda(client, clave, consulta="token personal"), "SIN_IDENTIDAD")
    nombres = {t["name"] for t in rpc(client, "tools/list", **clave).resultado["tools"]}
    assert "buscar_ayuda" not in nombres


def test_any_identified_person_may_use_it(client, como_limitado, como_completo):
    for cabeceras in (como_limitado, como_completo):
        nombres = {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}
        assert "buscar_ayuda" in nombres
        _valida(_ayuda(client, cabeceras, consulta="token personal"))


def test_no_organization_data_is_read_and_the_cost_is_fixed(
    client, como_limitado, django_assert_num_queries
):
    _ayuda(client, como_limitado, consulta="token personal")
    # The audit row: nothing else (credentials and permissions come from the cache, and a
    # read-only tool runs without a transaction, so no savepoints either).
    with django_assert_num_queries(1) as una:
        _ayuda(client, como_limitado, consulta="qué significa saldo de un CDP")
    with django_assert_num_queries(len(una.captured_queries)):
        _ayuda(client, como_limitado, consulta="xyzzy plugh frobnicate")
    tablas = " ".join(q["sql"] for q in una.captured_queries)
    for ajena in ("solicitudes_", "presupuesto_", "calidad_", "firmas_"):
        assert ajena not in tablas


def test_the_index_is_built_once_per_process(client, como_limitado, monkeypatch):
    ayuda.olvidar()
    construcciones = []
    original = ayuda.construir

    def contar(directorio):
        construcciones.append(directorio)
        return original(directorio)

    monkeypatch.setattr(ayuda, "construir", contar)
    for consulta in ("token personal", "saldo de un CDP", "firma anulada"):
        _valida(_ayuda(client, como_limitado, consulta=consulta))
    assert len(construcciones) == 1


# --- the engine, on manuals of the test -------------------------------------------------------

MANUAL_PRUEBA = """# Manual de prueba

Texto de introducción sobre vacaciones.

## Pedir vacaciones

Las vacaciones se piden con quince días de anticipación en el formulario de talento humano.

## Certificados laborales

Los certificados laborales se descargan del módulo de solicitudes.

## Sección vacía

"""


def test_manuals_are_split_by_section_and_named_by_their_title(manuales_propios):
    (manuales_propios / "manual-prueba.md").write_text(MANUAL_PRUEBA, encoding="utf-8")
    secciones = ayuda.indice().secciones
    assert [(s.manual, s.archivo, s.titulo) for s in secciones] == [
        ("Manual de prueba", "manual-prueba.md", "Introducción"),
        ("Manual de prueba", "manual-prueba.md", "Pedir vacaciones"),
        ("Manual de prueba", "manual-prueba.md", "Certificados laborales"),
    ]
    assert secciones[1].cuerpo.startswith("Las vacaciones se piden")


def test_the_tool_reads_the_configured_manuals(client, como_limitado, manuales_propios):
    (manuales_propios / "manual-prueba.md").write_text(MANUAL_PRUEBA, encoding="utf-8")
    datos = _valida(_ayuda(client, como_limitado, consulta="certificado laboral"))
    assert [(x["manual"], x["seccion"]) for x in datos["resultados"]] == [
        ("Manual de prueba", "Certificados laborales")
    ]


def test_a_long_section_is_cut_around_its_best_paragraph(manuales_propios):
    relleno = "\n\n".join(f"Párrafo de relleno número {i} sin nada especial." for i in range(30))
    texto = f"# Largo\n\n## Todo\n\n{relleno}\n\nAquí se explica la palabra zanahoria.\n"
    (manuales_propios / "largo.md").write_text(texto, encoding="utf-8")
    [acierto] = ayuda.indice().buscar("zanahoria", 4)
    assert len(acierto.seccion.cuerpo) > ayuda.MAX_FRAGMENTO
    assert len(acierto.fragmento) <= ayuda.MAX_FRAGMENTO
    assert acierto.fragmento.startswith("Aquí se explica la palabra zanahoria.")


def test_a_weak_best_hit_is_not_sufficient_even_if_it_holds_every_word(manuales_propios):
    # "formulario" is in every section: a low idf, so a low score despite full coverage.
    for i in range(6):
        (manuales_propios / f"m{i}.md").write_text(
            f"# Manual {i}\n\n## Parte {i}\n\nEl formulario número {i} se llena en línea.\n",
            encoding="utf-8",
        )
    indice = ayuda.indice()
    aciertos = indice.buscar("formulario", 4)
    assert len(aciertos) == 4
    assert aciertos[0].puntaje < ayuda.UMBRAL_PUNTAJE
    assert ayuda.suficiente("formulario", aciertos) is False
    fuertes = indice.buscar("formulario número 3", 4)
    assert fuertes[0].seccion.titulo == "Parte 3"


@pytest.mark.parametrize(
    ("plural", "singular"),
    [
        ("solicitudes", "solicitud"),
        ("tokens", "token"),
        ("errores", "error"),
        ("nombres", "nombre"),
        ("roles", "rol"),
        ("correcciones", "corrección"),
        ("meses", "mes"),
        ("certificados", "certificado"),
    ],
)
def test_light_stemming_joins_plural_and_singular(plural, singular):
    assert ayuda.terminos(plural) == ayuda.terminos(singular)


def test_terms_drop_stopwords_accents_and_split_tool_names():
    assert ayuda.terminos("¿Cómo uso estado_cdp en el hub?") == [
        "uso",
        "estado_cdp",
        "estado",
        "cdp",
        "hub",
    ]


def test_every_real_manual_has_a_title_and_sections():
    indice = ayuda.construir(ayuda.directorio_manuales())
    archivos = {s.archivo for s in indice.secciones}
    assert len(archivos) == 8
    for archivo in archivos:
        propias = [s for s in indice.secciones if s.archivo == archivo]
        assert len(propias) >= 3
        assert all(s.manual and not s.manual.endswith(".md") for s in propias)
