// Preload (`node --import ./cabeceras.mjs`) that adds our credential headers to every HTTP request
// an outside MCP tool sends to the server under test.
//
// Why: `@modelcontextprotocol/conformance` has no option to send headers (it builds the SDK's
// StreamableHTTPClientTransport with a bare URL, and the dns-rebinding scenario posts with undici's
// `request`), and our server never answers without a credential. Adding them on the client side
// keeps the server exactly as in production: no test-only bypass, no proxy.
//
// Environment:
//   MCP_URL         the server's MCP endpoint; headers go only to this origin (scheme+host+port),
//                   so a credential can never reach any other host.
//   MCP_CABECERAS   JSON object of headers to add, e.g. {"X-MCP-Api-Key": "sgiapi_..."}. Headers the
//                   tool already set (Host, Origin, Accept...) are never overwritten.
import { registerHooks } from "node:module";

const destino = new URL(process.env.MCP_URL ?? "http://127.0.0.1/").origin;
const extra = JSON.parse(process.env.MCP_CABECERAS ?? "{}");

function paraNosotros(url) {
  try {
    return new URL(String(url instanceof Request ? url.url : url)).origin === destino;
  } catch {
    return false;
  }
}

// fetch(): the SDK client transport (initialize, ping, tools/list, notifications).
const fetchOriginal = globalThis.fetch;
globalThis.fetch = (entrada, init = {}) => {
  if (!paraNosotros(entrada)) return fetchOriginal(entrada, init);
  const base = init.headers ?? (entrada instanceof Request ? entrada.headers : undefined);
  const headers = new Headers(base);
  for (const [nombre, valor] of Object.entries(extra)) {
    if (!headers.has(nombre)) headers.set(nombre, valor);
  }
  return fetchOriginal(entrada, { ...init, headers });
};

// Exported for the undici wrapper below (loaded as a module through the hooks).
export function conCabeceras(url, opciones = {}) {
  if (!paraNosotros(url)) return opciones;
  const headers = { ...(opciones.headers ?? {}) };
  const presentes = new Set(Object.keys(headers).map((n) => n.toLowerCase()));
  for (const [nombre, valor] of Object.entries(extra)) {
    if (!presentes.has(nombre.toLowerCase())) headers[nombre] = valor;
  }
  return { ...opciones, headers };
}

// undici.request(): the dns-rebinding scenario. `import { request } from "undici"` in the suite is
// resolved to a small module that re-exports the real undici with `request` wrapped.
const PREFIJO = "hub-cabeceras-undici:";
const aqui = import.meta.url;
registerHooks({
  resolve(especificador, contexto, siguiente) {
    const parent = contexto.parentURL ?? "";
    if (especificador !== "undici" || parent.startsWith(PREFIJO)) {
      return siguiente(especificador, contexto);
    }
    const real = siguiente(especificador, contexto);
    return { url: PREFIJO + real.url, format: "module", shortCircuit: true };
  },
  load(url, contexto, siguiente) {
    if (!url.startsWith(PREFIJO)) return siguiente(url, contexto);
    const real = JSON.stringify(url.slice(PREFIJO.length));
    const fuente = `
      import * as undici from ${real};
      import { conCabeceras } from ${JSON.stringify(aqui)};
      export * from ${real};
      export default undici.default;
      export function request(url, opciones) {
        return undici.request(url, conCabeceras(url, opciones));
      }
    `;
    return { format: "module", source: fuente, shortCircuit: true };
  },
});
