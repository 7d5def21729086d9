/**
 * OpenTelemetry for tests: the SDK's in-memory span exporter and a metric reader collected on
 * demand, behind the API shape `createGatewayTelemetry` takes (no global registration, so tests
 * in one process do not see each other's spans).
 */
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { OpenTelemetryAPI } from "../gateway-telemetry.js";

class TestReader extends MetricReader {
  protected onForceFlush = async () => undefined;
  protected onShutdown = async () => undefined;
}

export interface MemoryOtel {
  otel: OpenTelemetryAPI;
  exporter: InMemorySpanExporter;
  reader: MetricReader;
}

export function memoryOtel(): MemoryOtel {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const otel: OpenTelemetryAPI = {
    trace: { getTracer: (name) => tracerProvider.getTracer(name) },
    metrics: { getMeter: (name) => meterProvider.getMeter(name) },
  };
  return { otel, exporter, reader };
}
