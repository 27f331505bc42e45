// The TypeScript client v2 (@modelcontextprotocol/client) declaring URL elicitation, with
// "aprobar escrituras en el hub" switched on (scripts/mcp_clientes_2026.sh does it): a write's
// preview answers `input_required` with an elicitation/create in `url` mode pointing at the hub's
// approval page; the client opens it to the person (scripts/mcp/persona.mjs signs in on the hub)
// and retries with the request state. The first time the person only looks and the client says
// «accept» anyway: nothing is written (the client's answer is never an approval). The second
// time the person presses «Aprobar» on the page: the write is done, once. In `auto` and pinned.
//
// Environment (scripts/mcp/servidor.sh): MCP_URL, MCP_DEMO. Exits 1 on any wrong answer.
import { readFileSync } from "node:fs";

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

import { Persona } from "./persona.mjs";

const url = new URL(process.env.MCP_URL);
const demo = JSON.parse(readFileSync(process.env.MCP_DEMO, "utf8"));
const VERSION = "2026-07-28";
const ARGUMENTOS = {
  asunto: "No carga el tablero",
  descripcion: "El tablero presupuestal no carga desde esta mañana.",
  modulo: "Presupuesto",
};

let fallos = 0;
function fallo(etiqueta, texto) {
  fallos += 1;
  console.log(`FALLO ${etiqueta}: ${texto}`);
}

async function recorrido(etiqueta, modo) {
  const persona = new Persona(url, demo.usuarios.completo);
  const paginas = [];
  const cuerpos = [];
  const cliente = new Client(
    { name: "hub-aprobacion-2026", version: "1.0.0" },
    { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: modo } },
  );
  cliente.setRequestHandler("elicitation/create", async (peticion) => {
    const { mode, url: pagina } = peticion.params;
    paginas.push(`${mode} ${new URL(pagina).pathname}`);
    // The first time the person only looks at the page; the second, presses «Aprobar».
    const html = await persona.aprobacion(pagina, { aprobar: paginas.length === 2 });
    if (!html.includes(ARGUMENTOS.asunto)) fallo(etiqueta, "la página no muestra el asunto");
    return { action: "accept" };
  });
  const registro = async (entrada, init = {}) => {
    if (init.body) cuerpos.push(JSON.parse(init.body));
    return fetch(entrada, init);
  };
  await cliente.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: {
        headers: { "X-MCP-Api-Key": demo.api_key, "X-MCP-User-Token": demo.tokens.completo },
      },
      fetch: registro,
    }),
  );
  if (cliente.getNegotiatedProtocolVersion() !== VERSION) {
    fallo(etiqueta, `versión ${cliente.getNegotiatedProtocolVersion()}`);
  }
  const r = await cliente.callTool({ name: "radicar_mesa_ayuda", arguments: ARGUMENTOS });
  await cliente.close();

  if (r.isError) fallo(etiqueta, `la escritura falló: ${JSON.stringify(r.structuredContent)}`);
  const radicado = r.structuredContent?.numero_radicado ?? "";
  if (!radicado.startsWith("MDA-")) {
    fallo(etiqueta, `sin radicado: ${JSON.stringify(r.structuredContent)}`);
  }
  // Two visits of the same page, in url mode; the person's steps as the hub saw them.
  const [primera, segunda] = paginas;
  if (paginas.length !== 2 || primera !== segunda || !primera.startsWith("url /mcp/aprobaciones/")) {
    fallo(etiqueta, `páginas: ${paginas.join(", ")}`);
  }
  const pasos = persona.paginas.map(([p, s]) => `${p} ${s}`).join(", ");
  if (pasos !== "ingreso 302, aprobacion 200, aprobacion 200, aprobar 302") fallo(etiqueta, pasos);
  // Three tools/call: the preview, the retry the person had not approved, the approved one; the
  // retries echo the request state and declare URL elicitation in their envelope.
  const llamadas = cuerpos.filter((c) => c.method === "tools/call");
  const estados = llamadas.map((c) => c.params.requestState ?? null);
  if (llamadas.length !== 3 || estados[0] !== null || !estados[1] || estados[2] !== estados[1]) {
    const vistos = estados.map(Boolean).join(", ");
    fallo(etiqueta, `${llamadas.length} tools/call, requestState ${vistos}`);
  }
  const capacidades = llamadas[0]?.params._meta?.["io.modelcontextprotocol/clientCapabilities"];
  if (!capacidades?.elicitation?.url) fallo(etiqueta, `capacidades ${JSON.stringify(capacidades)}`);
  console.log(`${etiqueta}: ${radicado || "sin radicado"} tras ${pasos}`);
}

for (const [etiqueta, modo] of [
  ["auto + aprobación en el hub", "auto"],
  ["fijado + aprobación en el hub", { pin: VERSION }],
]) {
  try {
    await recorrido(etiqueta, modo);
  } catch (error) {
    fallo(etiqueta, `excepción: ${error?.stack ?? error}`);
  }
}
console.log(`Cliente TypeScript, elicitación por URL: ${fallos ? `${fallos} FALLOS` : "bien"}`);
process.exit(fallos ? 1 : 0);
