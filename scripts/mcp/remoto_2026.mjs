// mcp-remote (pinned in package.json) with `--protocol auto`, the stdio bridge desktop hosts run,
// between a 2025-era stdio client (the TypeScript SDK 1.x) and the live server: it must find the
// hub speaking 2026-07-28 (its log says it bridges), with no "Error from remote server" in its
// log, and list the person's tools and call one through the bridge. The personal token goes in a
// header file (0600, in the scratch folder), never in the process arguments.
//
// Environment (scripts/mcp/servidor.sh): MCP_URL, MCP_DEMO, MCP_TMP. Exits 1 on any wrong answer.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const demo = JSON.parse(readFileSync(process.env.MCP_DEMO, "utf8"));
const carpeta = join(process.env.MCP_TMP, "mcp-remote");
mkdirSync(carpeta, { recursive: true, mode: 0o700 });
const archivo = join(carpeta, "cabeceras.txt");
const cabeceras = `X-MCP-Api-Key: ${demo.api_key}\nX-MCP-User-Token: ${demo.tokens.completo}\n`;
writeFileSync(archivo, cabeceras, { mode: 0o600 });
const puente = new URL("./node_modules/mcp-remote/dist/proxy.js", import.meta.url).pathname;
const version = JSON.parse(
  readFileSync(new URL("./node_modules/mcp-remote/package.json", import.meta.url)),
).version;

let fallos = 0;
function fallo(texto) {
  fallos += 1;
  console.log(`FALLO mcp-remote: ${texto}`);
}

const transporte = new StdioClientTransport({
  command: process.execPath,
  args: [puente, process.env.MCP_URL, "--protocol", "auto", "--header-file", archivo],
  env: { ...process.env, MCP_REMOTE_CONFIG_DIR: carpeta },
  stderr: "pipe",
});
let registro = "";
transporte.stderr.on("data", (trozo) => {
  registro += trozo;
});
const cliente = new Client({ name: "hub-mcp-remote", version: "1.0.0" });
try {
  await cliente.connect(transporte);
  const { tools } = await cliente.listTools();
  if (tools.length !== 17) fallo(`tools/list: ${tools.length} herramientas (se esperaban 17)`);
  const r = await cliente.callTool({ name: "estado_cdp", arguments: { numero: demo.cdp } });
  if (r.isError || r.structuredContent?.numero_cdp !== demo.cdp) {
    fallo(`estado_cdp: ${JSON.stringify(r.structuredContent)}`);
  }
} catch (error) {
  fallo(`excepción: ${error?.stack ?? error}`);
} finally {
  await cliente.close();
}
if (!registro.includes("Remote server speaks MCP 2026-07-28")) {
  fallo("no se quedó en 2026-07-28");
}
if (registro.includes("Error from remote server")) {
  const lineas = registro.split("\n").filter((l) => l.includes("Error from remote server"));
  fallo(`su registro dice: ${lineas.join(" | ")}`);
}
if (fallos) {
  console.log(registro.replaceAll(demo.api_key, "…").replaceAll(demo.tokens.completo, "…"));
}
console.log(`mcp-remote ${version} --protocol auto: ${fallos ? `${fallos} FALLOS` : "bien"}`);
process.exit(fallos ? 1 : 0);
