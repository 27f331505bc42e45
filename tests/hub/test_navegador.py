from __future__ import annotations

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


def test_real_browser_reads_a_ping_through_the_live_server(navegador):
    pagina = navegador(390, 844)
    respuesta = pagina.goto(pagina.base + "/auth/api/v1/ping")
    assert respuesta.status == 200
    assert '"servicio":"auth"' in pagina.content()
