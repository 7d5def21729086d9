/**
 * OpenTelemetry for tests: the SDK's in-memory span exporter and a metric reader collected on
 * demand, behind the API shape `createGatewayTelemetry` takes (no global registration, so tests
 * in one process do not see each other's spans).
 */
import { context, trace } from "@opentelemetry/api";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
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
    // spans are parented through contexts passed by hand: no context manager is registered
    trace: { getTracer: (name) => tracerProvider.getTracer(name), setSpan: trace.setSpan },
    context: { active: () => context.active() },
    metrics: { getMeter: (name) => meterProvider.getMeter(name) },
  };
  return { otel, exporter, reader };
}

/** The finished spans as a tree of names: each root span, then its children indented, in the
 * order they finished (children finish before their parent). */
export function spanTree(spans: readonly ReadableSpan[]): string[] {
  const lines: string[] = [];
  const add = (span: ReadableSpan, depth: number) => {
    lines.push(`${"  ".repeat(depth)}${span.name}`);
    for (const child of spans) {
      if (child.parentSpanContext?.spanId === span.spanContext().spanId) add(child, depth + 1);
    }
  };
  for (const span of spans) if (!span.parentSpanContext) add(span, 0);
  return lines;
}

/** Every span's parent is a span of the same trace that finished too (nothing dangles). */
export function orphans(spans: readonly ReadableSpan[]): string[] {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  return spans
    .filter((span) => span.parentSpanContext && !ids.has(span.parentSpanContext.spanId))
    .map((span) => span.name);
}

/** The names of every metric collected so far, sorted. */
export async function metricNames(reader: MetricReader): Promise<string[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name))
    .sort();
}

/** The data points of metric `name` collected now, as [attributes, value] pairs. */
export async function dataPoints(reader: MetricReader, name: string): Promise<unknown[][]> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((entry) => entry.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((point) => [point.attributes, point.value]);
}
