-- The request(s) one wrk run repeats, read from the environment (bench/correr.py sets them;
-- bench/peticiones.py defines them, so wrk and the query count replay the very same request).
--
-- One request (BENCH_N unset or 1): BENCH_METODO, BENCH_RUTA, BENCH_CABECERAS ("Name: value"
-- lines), BENCH_CUERPO, BENCH_ESPERADO (the one status that counts as success) and
-- BENCH_CONTIENE (text the body must hold, e.g. "isError":false; a tool error is HTTP 200).
-- Several (BENCH_N > 1, the memory run): the same variables suffixed _1.._N, sent in turn;
-- then any status outside 200-399 or a body with "isError":true is a failure.
-- done() prints one line "BENCH_JSON {...}" with the figures and the failures of every thread.

local function leer(sufijo)
  local cabeceras = {}
  for linea in string.gmatch(os.getenv("BENCH_CABECERAS" .. sufijo) or "", "[^\n]+") do
    local nombre, valor = string.match(linea, "^([^:]+):%s*(.*)$")
    if nombre then cabeceras[nombre] = valor end
  end
  local cuerpo = os.getenv("BENCH_CUERPO" .. sufijo)
  if cuerpo == "" then cuerpo = nil end
  return {
    metodo = os.getenv("BENCH_METODO" .. sufijo) or "GET",
    ruta = os.getenv("BENCH_RUTA" .. sufijo) or "/",
    cabeceras = cabeceras,
    cuerpo = cuerpo,
  }
end

local total = tonumber(os.getenv("BENCH_N") or "1")
local esperado = tonumber(os.getenv("BENCH_ESPERADO") or "200")
local contiene = os.getenv("BENCH_CONTIENE")
if contiene == "" then contiene = nil end

local hilos = {}
local peticiones = {}
local siguiente = 0

function setup(hilo)
  table.insert(hilos, hilo)
end

function init(args)
  malas = 0
  for i = 1, total do
    local p = leer(total > 1 and ("_" .. i) or "")
    peticiones[i] = wrk.format(p.metodo, p.ruta, p.cabeceras, p.cuerpo)
  end
end

function request()
  siguiente = siguiente % total + 1
  return peticiones[siguiente]
end

function response(status, headers, body)
  if total > 1 then
    if status < 200 or status > 399 or (body and string.find(body, '"isError":true', 1, true)) then
      malas = malas + 1
    end
  elseif status ~= esperado or (contiene and not (body and string.find(body, contiene, 1, true))) then
    malas = malas + 1
  end
end

function done(resumen, latencia, _)
  local suma = 0
  for _, hilo in ipairs(hilos) do
    suma = suma + (hilo:get("malas") or 0)
  end
  local e = resumen.errors
  io.write(string.format(
    'BENCH_JSON {"peticiones":%d,"duracion_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,' ..
    '"p99_us":%d,"max_us":%d,"media_us":%.1f,"malas":%d,"err_conexion":%d,"err_lectura":%d,' ..
    '"err_escritura":%d,"err_status":%d,"err_timeout":%d}\n',
    resumen.requests, resumen.duration, resumen.bytes,
    latencia:percentile(50), latencia:percentile(90), latencia:percentile(99), latencia.max,
    latencia.mean, suma, e.connect, e.read, e.write, e.status, e.timeout))
end
