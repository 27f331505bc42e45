// The official TypeScript client v2 (@modelcontextprotocol/client, pinned in package.json) speaking
// MCP 2026-07-28 to the live server: in `auto` mode (it settles with one server/discover, no
// initialize, no error) and pinned to 2026-07-28; through the personal token (with the API key)
// and through OAuth done for real (401, discovery, dynamic registration, PKCE authorization code
// with the person signing in and approving on the hub's pages, token exchange); each lists every
// tool, calls every tool and confirms both writes. Every exchange must answer 200 and name its
// method (Mcp-Method) and, on tools/call, the tool (Mcp-Name).
//
// Environment (scripts/mcp/servidor.sh): MCP_URL, MCP_DEMO. Secrets are sent, never printed.
// Exits 1 on any wrong answer.
import { readFileSync } from "node:fs";

import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";

import { Persona } from "./persona.mjs";

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
      ruta: new URL(entrada instanceof Request ? entrada.url : entrada).pathname,
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
const RETORNO = "http://127.0.0.1:33418/callback"; // a loopback redirect (RFC 8252)

// The client's OAuthClientProvider, in memory: a public client that registers itself; the
// "browser" it sends the person to is Persona (scripts/mcp/persona.mjs).
class ProveedorOAuth {
  constructor(persona) {
    this.persona = persona;
    this.guardado = {};
  }
  get redirectUrl() {
    return RETORNO;
  }
  get clientMetadata() {
    return {
      client_name: "Cliente TypeScript 2026",
      redirect_uris: [RETORNO],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "asistente:leer asistente:escribir",
    };
  }
  clientInformation() {
    return this.guardado.cliente;
  }
  saveClientInformation(cliente) {
    this.guardado.cliente = cliente;
  }
  tokens() {
    return this.guardado.tokens;
  }
  saveTokens(tokens) {
    this.guardado.tokens = tokens;
  }
  saveCodeVerifier(verificador) {
    this.guardado.verificador = verificador;
  }
  codeVerifier() {
    return this.guardado.verificador;
  }
  saveDiscoveryState(estado) {
    this.guardado.descubrimiento = estado;
  }
  discoveryState() {
    return this.guardado.descubrimiento;
  }
  async redirectToAuthorization(autorizacion) {
    const pkce = autorizacion.searchParams;
    if (pkce.get("code_challenge_method") !== "S256" || !pkce.get("code_challenge")) {
      throw new Error(`autorización sin PKCE S256: ${[...pkce.keys()].join(", ")}`);
    }
    this.retorno = await this.persona.autorizar(autorizacion);
  }
}

// The first connection of a new client: 401, discovery, registration, the person's sign-in and
// consent, then the code exchanged for tokens. The provider, holding them, is what the walk uses.
async function conectarConOAuth(etiqueta, modo) {
  const persona = new Persona(url, demo.usuarios.completo);
  const proveedor = new ProveedorOAuth(persona);
  const traza = [];
  const transporte = new StreamableHTTPClientTransport(url, {
    authProvider: proveedor,
    fetch: conTraza(traza),
  });
  const cliente = new Client(
    { name: "hub-cliente-2026", version: "1.0.0" },
    { versionNegotiation: { mode: modo } },
  );
  try {
    await cliente.connect(transporte);
    await cliente.listTools();
    fallo(etiqueta, "el hub no pidió credenciales (401)");
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  if (!proveedor.retorno) throw new Error("el cliente no llevó a la persona a autorizar");
  await transporte.finishAuth(proveedor.retorno.searchParams);
  await cliente.close();
  const pasos = persona.paginas.map(([p, s]) => `${p} ${s}`).join(", ");
  if (pasos !== "ingreso 302, consentimiento 200, decision 302") fallo(etiqueta, pasos);
  // The dance as the hub saw it: 401 on the endpoint, then metadata, registration and token.
  const danza = traza.map((t) => `${t.status} ${t.ruta}`);
  const esperada = [
    `401 ${url.pathname}`,
    `200 /.well-known/oauth-protected-resource${url.pathname}`,
    "200 /.well-known/oauth-authorization-server",
    "201 /oauth/register",
    "200 /oauth/token",
  ];
  if (danza.join() !== esperada.join()) fallo(etiqueta, `intercambios: ${danza.join(", ")}`);
  const tokens = proveedor.tokens();
  const { access_token: acceso, refresh_token: refresco } = tokens ?? {};
  if (!acceso?.startsWith("sgioat_") || !refresco?.startsWith("sgiort_")) {
    fallo(etiqueta, "el intercambio no dio tokens del hub");
  }
  console.log(`${etiqueta}: registro, ingreso, consentimiento y token (${pasos})`);
  return { authProvider: proveedor };
}

for (const [etiqueta, modo, opciones] of [
  ["auto + token personal", "auto", async () => personal],
  ["fijado + token personal", { pin: VERSION }, async () => personal],
  ["auto + OAuth", "auto", conectarConOAuth],
  ["fijado + OAuth", { pin: VERSION }, conectarConOAuth],
]) {
  try {
    await recorrido(etiqueta, modo, await opciones(etiqueta, modo));
  } catch (error) {
    fallo(etiqueta, `excepción: ${error?.stack ?? error}`);
  }
}
console.log(`Cliente TypeScript ${version} (${VERSION}): ${fallos ? `${fallos} FALLOS` : "bien"}`);
process.exit(fallos ? 1 : 0);
