// The official TypeScript client v2 (@modelcontextprotocol/client, pinned in package.json) speaking
// MCP 2026-07-28 to the live server: in `auto` mode (it settles with one server/discover, no
// initialize, no error) and pinned to 2026-07-28; through the personal token (with the API key)
// and through an OAuth access token (Bearer); each lists every tool, calls every tool and confirms
// both writes. Every exchange must answer 200 and name its method (Mcp-Method) and, on tools/call,
// the tool (Mcp-Name).
//
// Environment (scripts/mcp/servidor.sh): MCP_URL, MCP_DEMO. Secrets are sent, never printed.
// Exits 1 on any wrong answer.
import { readFileSync } from "node:fs";

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const url = new URL(process.env.MCP_URL);
const demo = JSON.parse(readFileSync(process.env.MCP_DEMO, "utf8"));
const version = JSON.parse(
  readFileSync(new URL("./node_modules/@modelcontextprotocol/client/package.json", import.meta.url)),
).version;
const VERSION = "2026-07-28";
const ESCRITURAS = ["comentar_solicitud", "radicar_mesa_ayuda"];

// A meaningful call of every tool with the demo's own identifiers (tests/mcp_cliente.py).
const ajena = demo.solicitud_ajena;
const ARGUMENTOS = {
  buscar_ayuda: { consulta: "¿cómo creo un token personal?" },
  buscar_documento: { texto: demo.documento },
  buscar_solicitudes: { alcance: "todas" },
  busqueda_global: { texto: "certificado" },
  comentar_solicitud: { numero_radicado: ajena, comentario: "Revisado, gracias." },
  diagnostico_servicio: {},
  estado_cdp: { numero: demo.cdp },
  estado_presupuesto: {},
  estado_rp: { numero: demo.rp },
  estado_solicitud: { numero_radicado: ajena },
  mis_accesos: {},
  mis_tareas: {},
  radicar_mesa_ayuda: {
    asunto: "No exporta el tablero",
    descripcion: "El botón de exportar del tablero presupuestal no responde.",
    modulo: "Presupuesto",
  },
  reporte_preparar: {
    ficha: { fuente: "cdp", titulo: "CDP del año", filtros: [], formato: "xlsx" },
  },
  resumen_ejecutivo: { ambito: "paa_mes" },
  resumen_solicitud: { numero_radicado: ajena, incluir_comentarios: true },
  uso_asistente: {},
};

let fallos = 0;
function fallo(etiqueta, texto) {
  fallos += 1;
  console.log(`FALLO ${etiqueta}: ${texto}`);
}

// fetch with a trace: status, Mcp-Method and Mcp-Name of every request to the endpoint.
function conTraza(traza) {
  return async (entrada, init = {}) => {
    const respuesta = await fetch(entrada, init);
    const cabeceras = new Headers(init.headers ?? {});
    traza.push({
      status: respuesta.status,
      metodo: cabeceras.get("mcp-method"),
      nombre: cabeceras.get("mcp-name"),
    });
    return respuesta;
  };
}

async function recorrido(etiqueta, modo, opcionesTransporte) {
  const traza = [];
  const cliente = new Client(
    { name: "hub-cliente-2026", version: "1.0.0" },
    { versionNegotiation: { mode: modo } },
  );
  await cliente.connect(
    new StreamableHTTPClientTransport(url, { ...opcionesTransporte, fetch: conTraza(traza) }),
  );
  const negociada = cliente.getNegotiatedProtocolVersion();
  if (negociada !== VERSION) fallo(etiqueta, `versión ${negociada}, se esperaba ${VERSION}`);
  const { tools } = await cliente.listTools();
  const listadas = new Set(tools.map((h) => h.name));
  const esperadas = Object.keys(ARGUMENTOS);
  if (listadas.size !== esperadas.length || !esperadas.every((n) => listadas.has(n))) {
    fallo(etiqueta, `tools/list: ${[...listadas].sort().join(", ")}`);
  }
  const previas = {};
  for (const [nombre, args] of Object.entries(ARGUMENTOS)) {
    const r = await cliente.callTool({ name: nombre, arguments: args });
    if (r.isError) fallo(etiqueta, `${nombre}: ${JSON.stringify(r.structuredContent)}`);
    else if (r.content.length !== 2) fallo(etiqueta, `${nombre}: ${r.content.length} contenidos`);
    previas[nombre] = r;
  }
  for (const nombre of ESCRITURAS) {
    const token = previas[nombre].structuredContent?.token_confirmacion;
    const args = { ...ARGUMENTOS[nombre], confirmar: true, token_confirmacion: token };
    const r = await cliente.callTool({ name: nombre, arguments: args });
    if (r.isError) fallo(etiqueta, `${nombre} confirmada: ${JSON.stringify(r.structuredContent)}`);
  }
  await cliente.close();

  const malas = traza.filter((t) => t.status !== 200);
  if (malas.length) fallo(etiqueta, `respuestas no 200: ${JSON.stringify(malas)}`);
  const metodos = traza.map((t) => t.metodo);
  if (metodos.includes("initialize") || metodos.includes(null)) {
    fallo(etiqueta, `métodos enviados: ${metodos.join(", ")}`);
  }
  const descubrimientos = metodos.filter((m) => m === "server/discover").length;
  if (descubrimientos !== 1) fallo(etiqueta, `${descubrimientos} server/discover (se esperaba 1)`);
  const nombres = traza.filter((t) => t.metodo === "tools/call").map((t) => t.nombre);
  const llamadas = [...Object.keys(ARGUMENTOS), ...ESCRITURAS];
  if (nombres.join() !== llamadas.join()) fallo(etiqueta, `Mcp-Name: ${nombres.join(", ")}`);
  console.log(
    `${etiqueta}: ${traza.length} peticiones, ${llamadas.length} llamadas, versión ${negociada}`,
  );
}

const personal = {
  requestInit: {
    headers: { "X-MCP-Api-Key": demo.api_key, "X-MCP-User-Token": demo.tokens.completo },
  },
};
const oauth = { authProvider: { token: async () => demo.oauth_token } };

for (const [etiqueta, modo, opciones] of [
  ["auto + token personal", "auto", personal],
  ["fijado + token personal", { pin: VERSION }, personal],
  ["auto + OAuth", "auto", oauth],
  ["fijado + OAuth", { pin: VERSION }, oauth],
]) {
  try {
    await recorrido(etiqueta, modo, opciones);
  } catch (error) {
    fallo(etiqueta, `excepción: ${error?.stack ?? error}`);
  }
}
console.log(`Cliente TypeScript ${version} (${VERSION}): ${fallos ? `${fallos} FALLOS` : "bien"}`);
process.exit(fallos ? 1 : 0);
