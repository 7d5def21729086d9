/**
 * The parts of `@opentelemetry/api` the gateway uses, as structural types: toolsift's own types
 * never need the package, which stays an optional peer loaded only with `--otel`.
 */

/** Attribute values the gateway records: names, codes, counts and flags. */
export type Attributes = Record<string, string | number | boolean>;

/** OpenTelemetry's context (a span's parent travels in it); passed along, never read. */
export interface TelemetryContext {
  getValue(key: symbol): unknown;
}

export interface TelemetrySpan {
  setAttributes(attributes: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  updateName(name: string): unknown;
  /** `endTime` in milliseconds since the epoch; now by default. */
  end(endTime?: number): void;
}

export interface SpanOptions {
  attributes?: Attributes;
  /** `SpanKind`: 0 internal, 1 server, 2 client. */
  kind?: number;
  /** Milliseconds since the epoch; now by default. */
  startTime?: number;
}

export interface TelemetryTracer {
  startSpan(name: string, options?: SpanOptions, context?: TelemetryContext): TelemetrySpan;
}

interface InstrumentOptions {
  description?: string;
  unit?: string;
}

export interface TelemetryMeter {
  createCounter(
    name: string,
    options?: InstrumentOptions,
  ): { add(value: number, attributes?: Attributes): void };
  createHistogram(
    name: string,
    options?: InstrumentOptions,
  ): { record(value: number, attributes?: Attributes): void };
  createObservableUpDownCounter(
    name: string,
    options?: InstrumentOptions,
  ): {
    addCallback(
      callback: (result: { observe(value: number, attributes?: Attributes): void }) => void,
    ): void;
  };
}

/** The parts of `@opentelemetry/api` the gateway uses (a structural subset, so toolsift's types
 * do not need the package). Pass the module itself. */
export interface OpenTelemetryAPI {
  trace: {
    getTracer(name: string, version?: string): TelemetryTracer;
    /** The context with `span` as the parent of spans started in it. */
    setSpan(context: TelemetryContext, span: TelemetrySpan): TelemetryContext;
  };
  context: { active(): TelemetryContext };
  metrics: { getMeter(name: string, version?: string): TelemetryMeter };
}

export const STATUS_OK = 1;
export const STATUS_ERROR = 2;
export const KIND_SERVER = 1;
export const KIND_CLIENT = 2;

/** The status of a span that ended with `errorCode`, or fine without one. */
export function statusOf(errorCode: string | undefined): { code: number; message?: string } {
  return errorCode === undefined ? { code: STATUS_OK } : { code: STATUS_ERROR, message: errorCode };
}
