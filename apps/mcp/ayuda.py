"""Search over the hub's own usage manuals (docs/manuales/*.md) with BM25, for buscar_ayuda.

Each manual is split by `##` section (the text before the first `##` is its introduction); the
`#` title names the manual. The index is built once per process, on first use, and kept in
memory: the manuals ship with the release and never change while it runs. No database, no
organization data, no AI model.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from hub.busqueda.texto import normalizar

# BM25 parameters (the usual ones).
K1 = 1.2
B = 0.75
# A section heading says what the section is about: each query term found in it adds this
# share of the term's idf on top of the body score (a two-field BM25, simplified).
PESO_TITULO_SECCION = 1.0
# `suficiente` rule: the best hit scores at least this much AND the returned hits hold at
# least this share of the query's terms (see docs/decisiones/herramientas.md, "buscar_ayuda").
UMBRAL_PUNTAJE = 3.0
UMBRAL_COBERTURA = 0.6
MAX_FRAGMENTO = 700
INTRODUCCION = "Introducción"

# Spanish function words and the question fillers people type ("cómo puedo…", "qué significa…"),
# already normalized (lower case, no accents).
_VACIAS = """
    a al algo algun alguna algunas alguno algunos ante antes aqui asi aun cada como con contra
    cual cuales cualquier cuando cuanto de del desde donde dos e el ella ellas ello ellos en entre
    era eran es esa esas ese eso esos esta estan estas este esto estos fue fueron ha han hasta hay
    la las le les lo los mas me mi mis mucho muy nada ni no nos nosotros o otra otras otro otros
    para pero poco por porque pues que quien quienes se sea ser si sin sino sobre son su sus tal
    tambien te tiene tienen ti tu tus u un una unas uno unos usted ustedes y ya yo
    debo debe deben hacer hago necesito puedo puede pueden quiero quisiera significa sirve
    favor hola gracias
"""
PALABRAS_VACIAS = frozenset(_VACIAS.split())
_PALABRA = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")


def raiz(palabra: str) -> str:
    """Light stemming: plural -s/-es away, so "solicitudes" and "solicitud" meet.

    The same rule on singular and plural gives the same stem ("nombre"/"nombres" -> "nombr",
    "errores"/"error" -> "error"); nothing else of Spanish morphology is attempted.
    """
    if len(palabra) > 3 and palabra.endswith("s") and not palabra.endswith("ss"):
        palabra = palabra[:-1]
    if len(palabra) > 3 and palabra.endswith("e") and palabra[-2] in "dlnrsjz":
        palabra = palabra[:-1]
    return palabra


def terminos(texto: str) -> list[str]:
    """Stems of the meaningful words of `texto`, in order (repeated words kept)."""
    resultado: list[str] = []
    for palabra in _PALABRA.findall(normalizar(texto)):
        # estado_cdp is a word of its own and also "estado" and "cdp".
        partes = [palabra, *palabra.split("_")] if "_" in palabra else [palabra]
        resultado.extend(raiz(p) for p in partes if p and p not in PALABRAS_VACIAS)
    return resultado


@dataclass
class Seccion:
    """One `##` section of one manual: what is indexed and cited."""

    manual: str
    archivo: str
    titulo: str
    cuerpo: str
    frecuencias: Counter = field(default_factory=Counter)
    en_titulo: frozenset[str] = frozenset()
    longitud: int = 0


@dataclass
class Acierto:
    seccion: Seccion
    puntaje: float
    fragmento: str


@dataclass
class Indice:
    secciones: list[Seccion]
    documentos_con: dict[str, int]
    longitud_media: float

    def idf(self, termino: str) -> float:
        n = self.documentos_con.get(termino, 0)
        total = len(self.secciones)
        return math.log(1 + (total - n + 0.5) / (n + 0.5))

    def puntaje(self, seccion: Seccion, consulta: list[str]) -> float:
        total = 0.0
        norma = 1 - B + B * seccion.longitud / (self.longitud_media or 1)
        for termino in consulta:
            tf = seccion.frecuencias.get(termino, 0)
            if tf:
                total += self.idf(termino) * tf * (K1 + 1) / (tf + K1 * norma)
            if termino in seccion.en_titulo:
                total += PESO_TITULO_SECCION * self.idf(termino)
        return total

    def buscar(self, texto: str, maximo: int = 4) -> list[Acierto]:
        """The best `maximo` sections for `texto` (only those that share a term with it)."""
        consulta = list(dict.fromkeys(terminos(texto)))
        if not consulta:
            return []
        puntuadas = [(self.puntaje(s, consulta), i, s) for i, s in enumerate(self.secciones)]
        mejores = sorted((p for p in puntuadas if p[0] > 0), key=lambda p: (-p[0], p[1]))
        return [
            Acierto(seccion=s, puntaje=round(p, 2), fragmento=fragmento(s.cuerpo, consulta))
            for p, _, s in mejores[:maximo]
        ]


def suficiente(texto: str, aciertos: list[Acierto]) -> bool:
    """Whether the hits cover the question: a strong best hit and most query terms present."""
    consulta = set(terminos(texto))
    if not consulta or not aciertos or aciertos[0].puntaje < UMBRAL_PUNTAJE:
        return False
    vistos: set[str] = set()
    for acierto in aciertos:
        s = acierto.seccion
        vistos.update(terminos(f"{s.manual} {s.titulo} {acierto.fragmento}"))
    return len(consulta & vistos) / len(consulta) >= UMBRAL_COBERTURA


def fragmento(cuerpo: str, consulta: list[str]) -> str:
    """The section text, or the paragraphs around the one with most query terms if long."""
    if len(cuerpo) <= MAX_FRAGMENTO:
        return cuerpo
    bloques = [b.strip() for b in re.split(r"\n\s*\n", cuerpo) if b.strip()]
    buscados = set(consulta)
    aciertos = [sum(1 for t in terminos(b) if t in buscados) for b in bloques]
    inicio = aciertos.index(max(aciertos))
    elegido = bloques[inicio]
    for bloque in bloques[inicio + 1 :]:
        if len(elegido) + 2 + len(bloque) > MAX_FRAGMENTO:
            break
        elegido = f"{elegido}\n\n{bloque}"
    if len(elegido) > MAX_FRAGMENTO:
        elegido = elegido[: MAX_FRAGMENTO - 1].rstrip() + "…"
    return elegido


# --- reading the manuals ------------------------------------------------------------------


def leer_manual(ruta: Path) -> list[Seccion]:
    """The sections of one Markdown manual (its introduction first, if it has one)."""
    manual = ruta.stem.replace("-", " ").capitalize()
    secciones: list[Seccion] = []
    titulo, lineas = INTRODUCCION, []

    def cerrar() -> None:
        cuerpo = re.sub(r"\n{3,}", "\n\n", "\n".join(lineas)).strip()
        if cuerpo:
            secciones.append(Seccion(manual="", archivo=ruta.name, titulo=titulo, cuerpo=cuerpo))

    for linea in ruta.read_text(encoding="utf-8").splitlines():
        if linea.startswith("# "):
            manual = linea[2:].strip()
        elif linea.startswith("## "):
            cerrar()
            titulo, lineas = linea[3:].strip(), []
        else:
            lineas.append(linea.rstrip())
    cerrar()
    for seccion in secciones:
        seccion.manual = manual
    return secciones


def construir(directorio: Path) -> Indice:
    """Read every manual of `directorio` and index its sections."""
    secciones = [s for ruta in sorted(directorio.glob("*.md")) for s in leer_manual(ruta)]
    documentos_con: Counter = Counter()
    for s in secciones:
        titulo = [] if s.titulo == INTRODUCCION else terminos(s.titulo)
        palabras = terminos(s.manual) + titulo + terminos(s.cuerpo)
        s.frecuencias = Counter(palabras)
        s.en_titulo = frozenset(titulo)
        s.longitud = len(palabras)
        documentos_con.update(set(palabras))
    media = sum(s.longitud for s in secciones) / len(secciones) if secciones else 0.0
    return Indice(secciones=secciones, documentos_con=dict(documentos_con), longitud_media=media)


def directorio_manuales() -> Path:
    return Path(getattr(settings, "HUB_MANUALES_DIR", settings.BASE_DIR / "docs" / "manuales"))


_indice: Indice | None = None
_cerrojo = threading.Lock()


def indice() -> Indice:
    """The process-wide index, built on first use (the manuals are part of the release)."""
    global _indice
    if _indice is None:
        with _cerrojo:
            if _indice is None:
                _indice = construir(directorio_manuales())
    return _indice


def olvidar() -> None:
    """Drop the cached index (tests that point the search at other manuals)."""
    global _indice
    with _cerrojo:
        _indice = None
