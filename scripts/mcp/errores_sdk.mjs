// The official TypeScript SDK client 1.x (@modelcontextprotocol/sdk, pinned in package.json) calls
// tools into their errors against the live server: each must come back as a result with isError
// true, the Spanish message in content[0] and structuredContent.codigo, never as an exception.
//
// Why: SDK 1.x validates structuredContent against the tool's outputSchema (Ajv, draft-07 with
// formats) also when isError is true, and throws McpError -32602 when it does not match; the
// person and the model would never see the message. A few successful calls run through the same
// validation. Each result is also checked against the listed outputSchema with the SDK's own
// validator, so this keeps failing if a later SDK stops validating errors.
//
// Environment (scripts/mcp/servidor.sh): MCP_URL, MCP_DEMO (the demo_data JSON: API key, tokens,
// numbers). Secrets are only sent, never printed. Exits 1 on any wrong answer.
import { readFileSync } from "node:fs";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const url = new URL(process.env.MCP_URL);
const demo = JSON.parse(readFileSync(process.env.MCP_DEMO, "utf8"));
const version = JSON.parse(
  readFileSync(new URL("./node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url)),
).version;
const NO_EXISTE = "XYZ-1999-999999";

const clave = { "X-MCP-Api-Key": demo.api_key };
const persona = (quien) => ({ ...clave, "X-MCP-User-Token": demo.tokens[quien] });
const completo = persona("completo");

let fallos = 0;
let revisadas = 0;

// Every tool's outputSchema as `completo` (who may call them all) sees it in tools/list.
const esquemas = new Map();

async function conectar(cabeceras) {
  const cliente = new Client({ name: "hub-errores-sdk", version: "1.0.0" });
  await cliente.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: cabeceras } }),
  );
  // tools/list first: the SDK validates a result only for the tools it has seen listed.
  const { tools } = await cliente.listTools();
  return { cliente, listadas: tools };
}

const ajv = new AjvJsonSchemaValidator();

function cumpleEsquema(nombre, datos) {
  const esquema = esquemas.get(nombre);
  if (!esquema) return `${nombre} no está en tools/list`;
  const { valid, errorMessage } = ajv.getValidator(esquema)(datos);
  return valid ? null : `no cumple su outputSchema: ${errorMessage}`;
}

// One call: `codigo` and a fragment of the Spanish message for an error, or null for a success.
async function revisar({ cliente }, nombre, args, codigo, fragmento) {
  revisadas += 1;
  const etiqueta = `${nombre} ${codigo ?? "ok"}`;
  let resultado;
  try {
    resultado = await cliente.callTool({ name: nombre, arguments: args });
  } catch (exc) {
    fallos += 1;
    console.log(`FALLO ${etiqueta}: el SDK lanzó ${exc?.name}: ${exc?.message}`);
    return null;
  }
  const datos = resultado.structuredContent ?? {};
  const texto = resultado.content?.[0]?.text ?? "";
  const problemas = [];
  const esperadoError = codigo !== null;
  if (resultado.isError !== esperadoError) problemas.push(`isError ${resultado.isError}`);
  if (esperadoError) {
    if (datos.codigo !== codigo) problemas.push(`codigo ${datos.codigo}`);
    if (texto !== datos.mensaje) problemas.push("content[0] no es structuredContent.mensaje");
    if (!texto.includes(fragmento)) problemas.push(`mensaje sin «${fragmento}»: ${texto}`);
  }
  const esquema = cumpleEsquema(nombre, datos);
  if (esquema) problemas.push(esquema);
  if (problemas.length) {
    fallos += 1;
    console.log(`FALLO ${etiqueta}: ${problemas.join("; ")}`);
  } else {
    console.log(`bien  ${etiqueta}${esperadoError ? `: ${texto.slice(0, 70)}` : ""}`);
  }
  return datos;
}

console.log(`== SDK TypeScript ${version}: errores de herramienta contra ${url} ==`);

const yo = await conectar(completo);
for (const t of yo.listadas) esquemas.set(t.name, t.outputSchema);

const conClave = await conectar(clave);
await revisar(conClave, "mis_accesos", {}, "SIN_IDENTIDAD", "requiere una persona identificada");
await revisar(conClave, "estado_cdp", { numero: NO_EXISTE }, "SIN_IDENTIDAD", "envíe su token");
const publica = demo.solicitud_publica;
await revisar(
  conClave,
  "estado_solicitud",
  { numero_radicado: publica.numero_radicado },
  "FALTA_VERIFICACION",
  "indique correo_solicitante",
);
await revisar(
  conClave,
  "estado_solicitud",
  { numero_radicado: publica.numero_radicado, correo_solicitante: "nadie@ejemplo.org" },
  "NO_ENCONTRADO",
  "No se encontró",
);
await revisar(conClave, "buscar_documento", { texto: demo.documento }, null);
await conClave.cliente.close();

const limitado = await conectar(persona("limitado"));
await revisar(limitado, "estado_cdp", { numero: demo.cdp }, "SIN_PERMISO", "no tiene permiso");
await limitado.cliente.close();

for (const [nombre, sigla] of [
  ["estado_cdp", "CDP"],
  ["estado_rp", "RP"],
]) {
  const datos = await revisar(yo, nombre, { numero: NO_EXISTE }, "NO_ENCONTRADO", `un ${sigla}`);
  if (datos && datos.encontrado !== false) {
    fallos += 1;
    console.log(`FALLO ${nombre}: sin encontrado=false`);
  }
  await revisar(yo, nombre, { numero: demo[sigla.toLowerCase()] }, null);
}
for (const nombre of ["estado_solicitud", "resumen_solicitud"]) {
  await revisar(yo, nombre, { numero_radicado: NO_EXISTE }, "NO_ENCONTRADO", "No se encontró");
}
const invalidos = ["DATOS_INVALIDOS", "no son válidos"];
await revisar(yo, "buscar_documento", { texto: "x", no_existe: 1 }, ...invalidos);
await revisar(yo, "mis_tareas", { limite: 0 }, ...invalidos);

// A write: a token that is not one, then the same token confirmed twice (the second is reused).
const comentar = "comentar_solicitud";
const comentario = { numero_radicado: demo.solicitud_ajena, comentario: "Revisado desde el SDK." };
const confirmar = (token) => ({ ...comentario, confirmar: true, token_confirmacion: token });
await revisar(yo, comentar, confirmar("no-es-un-token"), "CONFIRMACION_INVALIDA", "no es válido");
const sinToken = { ...comentario, confirmar: true };
await revisar(yo, comentar, sinToken, "DATOS_INVALIDOS", "token_confirmacion");
const previa = await revisar(yo, comentar, comentario, null);
if (previa?.token_confirmacion) {
  await revisar(yo, comentar, confirmar(previa.token_confirmacion), null);
  const usado = confirmar(previa.token_confirmacion);
  await revisar(yo, comentar, usado, "CONFIRMACION_USADA", "ya se usó");
}
await yo.cliente.close();

console.log(
  `SDK TypeScript ${version}: ${revisadas - fallos} de ${revisadas} llamadas bien` +
    (fallos ? `, ${fallos} con FALLO` : ""),
);
process.exit(fallos ? 1 : 0);
