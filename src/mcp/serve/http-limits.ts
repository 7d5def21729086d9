/**
 * What one HTTP client may make the gateway hold: the size of a request body, the number of
 * sessions, how long an idle session lives, and what an `initialize` leaves in its session.
 */
import type { IncomingMessage } from "node:http";
import { ToolsiftError } from "../../errors.js";

/** The HTTP gateway's limits; each has a default in `HTTP_LIMIT_DEFAULTS`. */
export interface HttpLimits {
  /** Largest POST body, in bytes; a larger one gets 413 as soon as it passes the limit. */
  maxBodyBytes?: number;
  /** Most open client sessions; a new one past it gets 503. */
  maxSessions?: number;
  /** A session without a request for this long is closed (milliseconds). */
  sessionIdleMs?: number;
}

/** 4 MiB bodies (a tool call's arguments, not files), 100 sessions, 30 minutes idle. */
export const HTTP_LIMIT_DEFAULTS: Required<HttpLimits> = {
  maxBodyBytes: 4 * 1024 * 1024,
  maxSessions: 100,
  sessionIdleMs: 30 * 60 * 1000,
};

/** A body over the limit; the handler answers 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(
      `Request body over ${limit} bytes; send less, or raise the limit (maxBodyBytes, --max-body-bytes).`,
    );
  }
}

/** Reads a JSON body, counting bytes as they arrive: past `limit` it stops reading (the body is
 * never held whole) and rejects with BodyTooLargeError. An empty body is undefined. */
export function readBoundedJson(request: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        request.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      try {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve(text === "" ? undefined : JSON.parse(text));
      } catch (error) {
        reject(error);
      }
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

/** Characters of `clientInfo` (as JSON, without icons) and of `capabilities` a session keeps. */
const MAX_CLIENT_INFO_CHARS = 4_096;
const MAX_CAPABILITIES_CHARS = 65_536;

/**
 * Why an `initialize` request asks the session to keep too much, or undefined. The SDK keeps the
 * client's `clientInfo` and `capabilities` for the session's life, so both are bounded here;
 * `clientInfo.icons` is dropped from the request first (the gateway never shows them).
 */
export function initializeProblem(body: unknown): string | undefined {
  const params = (body as { params?: Record<string, unknown> } | undefined)?.params;
  if (params === undefined || params === null || typeof params !== "object") return undefined;
  const info = params.clientInfo;
  if (info !== null && typeof info === "object" && "icons" in info) {
    delete (info as { icons?: unknown }).icons;
  }
  if ((JSON.stringify(info) ?? "").length > MAX_CLIENT_INFO_CHARS) {
    return `initialize: clientInfo is over ${MAX_CLIENT_INFO_CHARS} characters as JSON; send a shorter name, title and version.`;
  }
  if ((JSON.stringify(params.capabilities) ?? "").length > MAX_CAPABILITIES_CHARS) {
    return `initialize: capabilities are over ${MAX_CAPABILITIES_CHARS} characters as JSON; send only the capabilities the client has.`;
  }
  return undefined;
}

/** Reads the limits with their defaults, refusing values that are not positive whole numbers. */
export function resolveHttpLimits(limits: HttpLimits): Required<HttpLimits> {
  const resolved = { ...HTTP_LIMIT_DEFAULTS };
  for (const key of Object.keys(HTTP_LIMIT_DEFAULTS) as (keyof HttpLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) {
      throw new ToolsiftError(
        "invalid_option",
        `${key} must be a positive whole number, got ${String(value)}; leave it out for the default (${HTTP_LIMIT_DEFAULTS[key]}).`,
      );
    }
    resolved[key] = value;
  }
  return resolved;
}
