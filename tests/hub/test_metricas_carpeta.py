"""The multiprocess folder as gunicorn's master keeps it: a dead worker's counts folded into the
archive files without changing any sum, its files gone; the folder emptied at start."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, multiprocess
from prometheus_client.mmap_dict import MmapedDict, mmap_key

from hub.observabilidad import metricas_carpeta


def _escribir(carpeta, tipo: str, pid: str, valores: dict[tuple[str, str], float]) -> None:
    archivo = MmapedDict(str(carpeta / f"{tipo}_{pid}.db"))
    for (ruta, muestra), valor in valores.items():
        clave = mmap_key("hub_prueba", muestra, ["ruta"], [ruta], "Prueba.")
        archivo.write_value(clave, valor, 0.0)
    archivo.close()


def _sumas(carpeta) -> dict[tuple[str, str], float]:
    recolectores = CollectorRegistry()
    multiprocess.MultiProcessCollector(recolectores, path=str(carpeta))
    return {
        (m.name, m.labels.get("ruta", "")): m.value
        for familia in recolectores.collect()
        for m in familia.samples
    }


def test_folding_a_dead_worker_keeps_every_sum_and_removes_its_file(tmp_path):
    _escribir(
        tmp_path, "counter", "101", {("a", "hub_prueba_total"): 3, ("b", "hub_prueba_total"): 1}
    )
    _escribir(tmp_path, "counter", "102", {("a", "hub_prueba_total"): 4})
    _escribir(tmp_path, "counter", "103", {("a", "hub_prueba_total"): 5})
    antes = _sumas(tmp_path)
    assert antes[("hub_prueba_total", "a")] == 12
    metricas_carpeta.archivar(str(tmp_path), 101)
    metricas_carpeta.archivar(str(tmp_path), 102)
    assert _sumas(tmp_path) == antes
    assert sorted(f.name for f in tmp_path.glob("*.db")) == ["counter_103.db", "counter_archivo.db"]
    metricas_carpeta.archivar(str(tmp_path), 999)  # a worker that never wrote: nothing changes
    assert _sumas(tmp_path) == antes


def test_emptying_at_start_removes_every_earlier_value(tmp_path):
    _escribir(tmp_path, "counter", "archivo", {("a", "hub_prueba_total"): 7})
    _escribir(tmp_path, "histogram", "104", {("a", "hub_prueba_sum"): 0.5})
    metricas_carpeta.vaciar(str(tmp_path))
    assert list(tmp_path.glob("*.db")) == []


def test_a_folder_removed_by_hand_does_not_stop_the_master(tmp_path):
    metricas_carpeta.archivar(str(tmp_path / "no-existe"), 101)
