/** A local HTTP server that records request bodies and answers with scripted model turns. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  body: { [key: string]: unknown };
}

export interface MockServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Answers the n-th request with `turns[n]` (as JSON); a request past the script gets a 500. */
export async function startMockServer(turns: readonly unknown[]): Promise<MockServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        body: text ? (JSON.parse(text) as { [key: string]: unknown }) : {},
      });
      const turn = turns[requests.length - 1];
      response.writeHead(turn === undefined ? 500 : 200, { "content-type": "application/json" });
      response.end(JSON.stringify(turn ?? { error: { message: "script exhausted" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The body of the n-th recorded request; fails the test when there was no such request. */
export function requestBody(
  requests: readonly RecordedRequest[],
  index: number,
): { [key: string]: unknown } {
  const request = requests[index];
  if (!request) throw new Error(`expected a request #${index}, got ${requests.length}`);
  return request.body;
}
