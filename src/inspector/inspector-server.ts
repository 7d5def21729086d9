/** The inspector's HTTP server: bundled assets and a small JSON API, on loopback by default. */
import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isToolsiftError, ToolsiftError } from "../errors.js";
import type { RecordedSession } from "../mcp/index.js";
import type { InspectorModel } from "./inspector-model.js";
import {
  LEARNED_REMOVE_PATH,
  type LearnedSource,
  learnedView,
  removeLearned,
} from "./learned-view.js";

/** One gateway client session as the Sessions view shows it: the gateway's recorder's entry
 * (a type-only import: the inspector never loads the MCP SDK). */
export type SessionView = RecordedSession;

/** What the sessions view shows; a gateway feeds it through `sessions` (see `InspectorServerOptions`). */
export interface SessionsView {
  attached: boolean;
  /** Where the sessions come from, e.g. the gateway's config file and mode. */
  source?: string;
  /** Changes whenever a session does; `/api/sessions?since=VERSION` answers `unchanged` then. */
  version?: number | string;
  /** Where MCP clients connect, when the gateway is served by this inspector. */
  endpoint?: string;
  /** The upstream servers and their state. */
  servers?: { server: string; state: string; tools: number; error?: string }[];
  /** The recorder's caps and what it dropped to stay within them. */
  limits?: { maxSessions: number; maxEvents: number; maxArgumentChars: number };
  droppedSessions?: number;
  /** Most recently active first. */
  sessions: SessionView[];
}

export interface InspectorServerOptions {
  model: InspectorModel;
  /** Default 127.0.0.1. Another address needs `allowRemote`: the page has no authentication. */
  host?: string;
  allowRemote?: boolean;
  /** Default 0 (any free port). */
  port?: number;
  /** The gateway's sessions; without it the page says no gateway is attached. */
  sessions?: () => SessionsView | Promise<SessionsView>;
  /** When set (a gateway served with `--token`), every API call needs it: as
   * `Authorization: Bearer TOKEN`, or the cookie the page gets when opened once as `/?token=TOKEN`.
   * The page's files themselves hold nothing and are served without it. */
  token?: string;
  /** The Learned view's words and remove action; without it the view says learning is off. */
  learned?: LearnedSource;
  /** Other handlers by exact path (the gateway's `/mcp`), run before the page's own checks:
   * each does its own Host/Origin checks and takes any method. */
  mount?: Record<string, (request: IncomingMessage, response: ServerResponse) => Promise<void>>;
}

export interface InspectorServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** The files the page is made of, read once; nothing else on disk is ever served. */
const ASSETS: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/inspector.css": { file: "inspector.css", type: "text/css; charset=utf-8" },
  "/inspector.js": { file: "inspector.js", type: "text/javascript; charset=utf-8" },
  "/inspector-common.js": { file: "inspector-common.js", type: "text/javascript; charset=utf-8" },
  "/inspector-sessions.js": {
    file: "inspector-sessions.js",
    type: "text/javascript; charset=utf-8",
  },
  "/inspector-search.js": { file: "inspector-search.js", type: "text/javascript; charset=utf-8" },
  "/inspector-learned.js": { file: "inspector-learned.js", type: "text/javascript; charset=utf-8" },
  "/inspector-charts.js": { file: "inspector-charts.js", type: "text/javascript; charset=utf-8" },
  "/favicon.svg": { file: "favicon.svg", type: "image/svg+xml" },
  // browsers ask for /favicon.ico whatever the page links; the same icon, not a 404
  "/favicon.ico": { file: "favicon.svg", type: "image/svg+xml" },
};

const HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
};

function loadAssets(): Map<string, { body: Buffer; type: string }> {
  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const [route, { file, type }] of Object.entries(ASSETS)) {
    assets.set(route, { body: readFileSync(new URL(`./assets/${file}`, import.meta.url)), type });
  }
  return assets;
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer) {
  response.writeHead(status, { ...HEADERS, "content-type": type });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown) {
  send(response, status, "application/json; charset=utf-8", JSON.stringify(value));
}

/** Host names the page may be reached by: DNS rebinding sends another name, so it is refused. */
function allowedHosts(host: string, port: number): Set<string> {
  const names = LOOPBACK.has(host) ? [...LOOPBACK] : [host];
  return new Set(
    names.map((name) => (name.includes(":") ? `[${name}]:${port}` : `${name}:${port}`)),
  );
}

const TOKEN_COOKIE = "toolsift_token";

/** Compares in constant time (hashes first, so the lengths match too). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token a request carries: a bearer header, or the page's cookie. */
function presentedToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice("Bearer ".length);
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

function unauthorized(response: ServerResponse) {
  response.setHeader("www-authenticate", "Bearer");
  sendJson(response, 401, {
    error: {
      code: "unauthorized",
      message:
        "This inspector needs the gateway's token: open the page once as /?token=TOKEN, or send Authorization: Bearer TOKEN.",
    },
  });
}

/** Checks the token on API calls; `/?token=` sets the page's cookie and redirects to a URL
 * without it (out of the address bar and history). Returns true once the request is answered. */
function guard(
  token: string,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): boolean {
  const offered = url.searchParams.get("token");
  if (url.pathname === "/" && offered !== null) {
    if (!sameSecret(offered, token)) {
      unauthorized(response);
      return true;
    }
    response.writeHead(303, {
      ...HEADERS,
      location: "/",
      "set-cookie": `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
    });
    response.end();
    return true;
  }
  if (!url.pathname.startsWith("/api/")) return false;
  const presented = presentedToken(request);
  if (presented !== undefined && sameSecret(presented, token)) return false;
  unauthorized(response);
  return true;
}

async function api(
  model: InspectorModel,
  options: InspectorServerOptions,
  url: URL,
  request: IncomingMessage,
) {
  const query = url.searchParams;
  const profile = query.get("profile") ?? undefined;
  switch (url.pathname) {
    case "/api/catalog":
      return model.catalog(profile);
    case "/api/search":
      return model.search(query.get("q") ?? "", {
        ...(profile ? { profile } : {}),
        limit: Number(query.get("limit") ?? 5) || 5,
      });
    case "/api/cost":
      return model.cost({ ...(profile ? { profile } : {}), reveal: query.get("reveal") ?? "" });
    case "/api/learned":
      return learnedView(options.learned);
    case LEARNED_REMOVE_PATH:
      if (request.method !== "POST")
        throw new ToolsiftError("invalid_option", `${LEARNED_REMOVE_PATH} takes POST only.`);
      return removeLearned(options.learned, request);
    case "/api/sessions": {
      if (!options.sessions) return { attached: false, sessions: [] };
      const view = await options.sessions();
      // the page polls: an unchanged log is a few bytes, not every session again
      const since = query.get("since");
      if (since !== null && view.version !== undefined && String(view.version) === since) {
        return { attached: true, version: view.version, unchanged: true };
      }
      return view;
    }
    default:
      return undefined;
  }
}

/** Refuses what this page never answers: another Host (DNS rebinding), a foreign Origin, a method
 * other than GET/HEAD (POST only to remove a learned word). Returns true once answered. */
function refuseForeign(
  request: IncomingMessage,
  response: ServerResponse,
  hosts: ReadonlySet<string>,
): boolean {
  if (!hosts.has((request.headers.host ?? "").toLowerCase())) {
    sendJson(response, 421, {
      error: {
        code: "bad_host",
        message: `Host "${request.headers.host ?? ""}" is not this inspector.`,
      },
    });
    return true;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !hosts.has(origin.replace(/^http:\/\//, "").toLowerCase())) {
    sendJson(response, 403, {
      error: { code: "bad_origin", message: `Origin "${origin}" may not use this inspector.` },
    });
    return true;
  }
  const removing =
    request.method === "POST" &&
    new URL(request.url ?? "/", "http://inspector.invalid").pathname === LEARNED_REMOVE_PATH;
  if (request.method !== "GET" && request.method !== "HEAD" && !removing) {
    sendJson(response, 405, {
      error: {
        code: "method_not_allowed",
        message: `Only GET is served (and POST to ${LEARNED_REMOVE_PATH}).`,
      },
    });
    return true;
  }
  return false;
}

/** Answers an `/api/` path: the model's JSON, 404 for an unknown path, 400 for a bad option. */
async function answerApi(
  options: InspectorServerOptions,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
) {
  try {
    const value = await api(options.model, options, url, request);
    if (value === undefined) {
      return sendJson(response, 404, {
        error: { code: "not_found", message: `No API at ${url.pathname}.` },
      });
    }
    sendJson(response, 200, value);
  } catch (error) {
    if (isToolsiftError(error)) {
      return sendJson(response, 400, { error: { code: error.code, message: error.message } });
    }
    throw error;
  }
}

/** One request, in order: mounted handlers, the host/origin/method checks, the token, the page's
 * files, then the API. `hosts` is filled once the server listens (it needs the port). */
async function handleRequest(
  options: InspectorServerOptions,
  assets: ReadonlyMap<string, { body: Buffer; type: string }>,
  hosts: ReadonlySet<string>,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const mounted = options.mount?.[new URL(request.url ?? "/", "http://inspector.invalid").pathname];
  if (mounted) return mounted(request, response);
  if (refuseForeign(request, response, hosts)) return;
  const url = new URL(request.url ?? "/", "http://inspector.invalid");
  if (options.token !== undefined && guard(options.token, request, response, url)) return;
  const asset = assets.get(url.pathname);
  if (asset) return send(response, 200, asset.type, asset.body);
  if (!url.pathname.startsWith("/api/")) {
    return sendJson(response, 404, {
      error: { code: "not_found", message: `Nothing at ${url.pathname}.` },
    });
  }
  return answerApi(options, url, request, response);
}

/** Listens on `host:port`; a port in use or not allowed becomes an error saying what to pick. */
function listen(server: Server, host: string, port: number | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE" || error.code === "EACCES"
          ? new ToolsiftError(
              "invalid_option",
              `Cannot serve the inspector on ${host} port ${port}: ${error.code === "EADDRINUSE" ? "it is in use" : "permission denied"}. Pick another port, or 0 for any free one.`,
              { cause: error },
            )
          : error,
      );
    server.once("error", refuse);
    server.listen(port ?? 0, host, () => {
      server.off("error", refuse);
      resolve();
    });
  });
}

/** Starts the server; resolves once it listens. */
export async function startInspectorServer(
  options: InspectorServerOptions,
): Promise<InspectorServer> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host) && options.allowRemote !== true) {
    throw new ToolsiftError(
      "invalid_option",
      `Refusing to serve the inspector on ${host}: it is not a loopback address and the page has no login. Pass --host ${host} explicitly to do it anyway.`,
    );
  }
  const assets = loadAssets();
  const hosts = new Set<string>();
  const server = createServer((request, response) => {
    handleRequest(options, assets, hosts, request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: { code: "internal", message: String(error) } });
      else response.destroy();
    });
  });
  await listen(server, host, options.port);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  for (const name of allowedHosts(host, port)) hosts.add(name);
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    url: `http://${shown}:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // a browser keeps its connection alive; without this, Ctrl+C would wait for it
        server.closeAllConnections();
      }),
  };
}
