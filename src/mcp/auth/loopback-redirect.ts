/**
 * The loopback redirect listener of a login (RFC 8252): an HTTP server on 127.0.0.1 that waits
 * for the authorization server to send the browser back with `code` and `state`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A started listener. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly url: string;
  /** Resolves with the code of the redirect that carries `state`; rejects on an error redirect
   * or after `timeoutMs`. */
  waitForCode(state: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>toolsift</title><p>${text}</p>`;

/** Listens on 127.0.0.1 at `port` (0: a free one). */
export async function startLoopbackRedirect(port = 0): Promise<LoopbackRedirect> {
  const waiting = new Map<
    string,
    { resolve: (code: string) => void; reject: (e: Error) => void }
  >();
  const server: Server = createServer((request, response) => {
    const address = new URL(request.url ?? "/", "http://127.0.0.1");
    const state = address.searchParams.get("state") ?? "";
    const waiter = waiting.get(state);
    if (address.pathname !== "/callback" || !waiter) {
      response.writeHead(404, { "content-type": "text/html" });
      response.end(PAGE("No toolsift login is waiting for this address."));
      return;
    }
    waiting.delete(state);
    const code = address.searchParams.get("code");
    const error = address.searchParams.get("error");
    if (code) {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(PAGE("Logged in. You can close this tab and return to the terminal."));
      waiter.resolve(code);
      return;
    }
    // the authorization server's own words (e.g. access_denied); never a secret
    const description = address.searchParams.get("error_description");
    response.writeHead(400, { "content-type": "text/html" });
    response.end(PAGE("The login did not complete; see the terminal."));
    waiter.reject(
      new Error(
        `The authorization server refused the login: ${error ?? "no code in the redirect"}${description ? ` (${description})` : ""}.`,
      ),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/callback`,
    waitForCode(state, timeoutMs = 300_000) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(state);
          reject(
            new Error(
              `No login came back within ${Math.round(timeoutMs / 1000)} s. Run the login again and finish it in the browser.`,
            ),
          );
        }, timeoutMs);
        timer.unref();
        const settle = () => clearTimeout(timer);
        waiting.set(state, {
          resolve: (code) => {
            settle();
            resolve(code);
          },
          reject: (error) => {
            settle();
            reject(error);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
