// The person at the browser, for the Node clients: signs in on the hub's page, approves on the
// OAuth consent page, and decides on the approval page of a write (issue 40), all over HTTP the
// way a browser does (cookies, CSRF token from the form, Origin), never touching the database.
// Secrets (password, codes) are sent, never printed.

const ENTIDADES = {
  "&amp;": "&",
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
  "&lt;": "<",
  "&gt;": ">",
};
const desescapar = (texto) => texto.replace(/&(amp|quot|#x27|#39|lt|gt);/g, (e) => ENTIDADES[e]);

// The fields a browser would send from a <form> of `html`: hidden inputs and ticked checkboxes.
function campos(html) {
  const pares = [];
  for (const [etiqueta] of html.matchAll(/<input\b[^>]*>/g)) {
    const atributo = (n) => etiqueta.match(new RegExp(`\\b${n}="([^"]*)"`))?.[1];
    const tipo = atributo("type");
    const nombre = atributo("name");
    if (!nombre) continue;
    if (tipo === "hidden" || (tipo === "checkbox" && /\bchecked\b/.test(etiqueta))) {
      pares.push([nombre, desescapar(atributo("value") ?? "on")]);
    }
  }
  return pares;
}

// The <form method="post"> of the page that holds `marca` (a button's name or value).
function formulario(html, marca) {
  const encontrado = [...html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)].find((f) =>
    f[0].includes(marca),
  );
  if (!encontrado) throw new Error(`la página no tiene un formulario con ${marca}`);
  return encontrado[0];
}

export class Persona {
  constructor(base, { username, password }) {
    this.base = new URL(base);
    this.credenciales = { username, password };
    this.galletas = new Map();
    this.paginas = []; // [name, status] of every page the person saw, for the caller's checks
  }

  async pedir(direccion, { form } = {}) {
    const url = new URL(direccion, this.base);
    const headers = { cookie: [...this.galletas].map(([k, v]) => `${k}=${v}`).join("; ") };
    let body;
    if (form) {
      body = new URLSearchParams(form);
      headers.origin = this.base.origin;
      headers.referer = url.href;
    }
    const metodo = form ? "POST" : "GET";
    const r = await fetch(url, { method: metodo, headers, body, redirect: "manual" });
    for (const galleta of r.headers.getSetCookie()) {
      const [par] = galleta.split(";");
      const i = par.indexOf("=");
      this.galletas.set(par.slice(0, i), par.slice(i + 1));
    }
    return r;
  }

  // Opens `direccion`; when the hub sends the person to sign in, signs in and comes back.
  async abrir(direccion, nombre) {
    let r = await this.pedir(direccion);
    if (r.status === 302 && r.headers.get("location").startsWith("/cuentas/login/")) {
      const ingreso = r.headers.get("location");
      const pagina = await (await this.pedir(ingreso)).text();
      const datos = [...campos(formulario(pagina, 'name="password"'))];
      datos.push(["username", this.credenciales.username]);
      datos.push(["password", this.credenciales.password]);
      const enviado = await this.pedir(ingreso, { form: datos });
      this.paginas.push(["ingreso", enviado.status]);
      if (enviado.status !== 302) throw new Error(`el ingreso respondió ${enviado.status}`);
      r = await this.pedir(enviado.headers.get("location"));
    }
    this.paginas.push([nombre, r.status]);
    return r;
  }

  // OAuth: from the authorization URL to the redirect back with the code (a URL).
  async autorizar(autorizacion) {
    const r = await this.abrir(autorizacion, "consentimiento");
    const html = await r.text();
    if (r.status !== 200) throw new Error(`consentimiento ${r.status}: ${html.slice(0, 300)}`);
    const datos = [...campos(formulario(html, 'name="allow"')), ["allow", "Autorizar"]];
    const decision = await this.pedir(autorizacion, { form: datos });
    this.paginas.push(["decision", decision.status]);
    if (decision.status !== 302) throw new Error(`la decisión respondió ${decision.status}`);
    return new URL(decision.headers.get("location"));
  }

  // The approval page of a write: looks at it, and with `aprobar` presses «Aprobar».
  async aprobacion(direccion, { aprobar }) {
    const r = await this.abrir(direccion, "aprobacion");
    const html = await r.text();
    if (r.status !== 200) throw new Error(`página de aprobación ${r.status}`);
    if (!aprobar) return html;
    const datos = [...campos(formulario(html, 'value="aprobar"')), ["decision", "aprobar"]];
    const decision = await this.pedir(direccion, { form: datos });
    this.paginas.push(["aprobar", decision.status]);
    if (decision.status !== 302) throw new Error(`«Aprobar» respondió ${decision.status}`);
    return html;
  }
}
