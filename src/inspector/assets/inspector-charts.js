// The page's charts: inline SVG, every value written beside its bar, series told apart by fill
// pattern as well as colour (readable in greyscale and in print).
import { fmt, svg } from "./inspector-common.js";

const WIDTH = 960;
const LABEL = 170;
const BAR = 14;
let charts = 0;

/** A hatched fill (and the solid ones' class names) for one chart; ids are unique per chart. */
function defs() {
  const id = `hatch-${++charts}`;
  const pattern = svg("pattern", {
    id,
    patternUnits: "userSpaceOnUse",
    width: 6,
    height: 6,
    patternTransform: "rotate(45)",
  });
  pattern.append(svg("rect", { width: 6, height: 6, class: "hatch-bg" }));
  pattern.append(svg("line", { x1: 1, y1: 0, x2: 1, y2: 6, class: "hatch-line" }));
  const node = svg("defs");
  node.append(pattern);
  return { node, hatch: `url(#${id})` };
}

function frame(title, height) {
  const chart = svg("svg", {
    role: "img",
    "aria-label": title,
    viewBox: `0 0 ${WIDTH} ${height}`,
    preserveAspectRatio: "xMinYMin meet",
  });
  chart.append(svg("title", {}, title));
  return chart;
}

function legend(chart, series, fills) {
  let x = LABEL;
  for (const s of series) {
    chart.append(svg("rect", { x, y: 4, width: 14, height: 14, class: s.cls, fill: fills[s.cls] }));
    const label = svg("text", { x: x + 20, y: 16, class: "legend" }, s.label);
    chart.append(label);
    x += 30 + s.label.length * 6.8;
  }
}

/** One horizontal bar with its value (and an optional note) written after it. */
function bar(chart, { y, value, max, cls, fill, text }) {
  const room = WIDTH - LABEL - 230;
  const length = value > 0 ? Math.max(2, (room * value) / max) : 0;
  chart.append(svg("rect", { x: LABEL, y, width: length, height: BAR, rx: 2, class: cls, fill }));
  chart.append(svg("text", { x: LABEL + length + 6, y: y + BAR - 3, class: "value" }, text));
}

/**
 * Per provider: every tool loaded, toolsift's first turn and the turn after the reveal query's
 * hits; `formats` as /api/cost gives them.
 */
export function costChart(formats) {
  const series = [
    { key: "all", label: "every tool loaded", cls: "bar-all" },
    { key: "firstTurn", label: "toolsift, first turn", cls: "bar-first" },
    { key: "afterReveals", label: "toolsift, after the search's reveals", cls: "bar-after" },
  ];
  const group = series.length * (BAR + 4) + 14;
  const chart = frame(
    "Tool-definition tokens per provider: every tool loaded vs toolsift's first turn vs after reveals",
    30 + formats.length * group,
  );
  const { node, hatch } = defs();
  chart.append(node);
  const fills = { "bar-after": hatch };
  legend(chart, series, fills);
  const max = Math.max(1, ...formats.flatMap((f) => series.map((s) => f[s.key])));
  formats.forEach((format, row) => {
    const top = 30 + row * group;
    chart.append(svg("text", { x: 0, y: top + group / 2 - 4, class: "label" }, format.name));
    series.forEach((s, i) => {
      const value = format[s.key];
      const saved = s.key === "all" || !format.all ? "" : ` (${saving(value, format.all)} less)`;
      bar(chart, {
        y: top + i * (BAR + 4),
        value,
        max,
        cls: s.cls,
        fill: fills[s.cls],
        text: `${fmt(value)} tokens${saved}`,
      });
    });
  });
  return chart;
}

export const saving = (part, whole) => `${((1 - part / whole) * 100).toFixed(1)}%`;

/** One bar per server; a second, hatched, only where the profile hides some of its tools. */
export function serverChart(servers, profile) {
  const rows = servers.map((s) => ({ ...s, split: s.visibleTokens !== s.tokens }));
  const height = 30 + rows.reduce((h, r) => h + (r.split ? 2 * BAR + 12 : BAR + 8), 0);
  const chart = frame(
    `Tokens per server if every tool were loaded, under profile ${profile}`,
    height,
  );
  const { node, hatch } = defs();
  chart.append(node);
  const series = [{ label: "all its tools", cls: "bar-all" }];
  if (rows.some((r) => r.split))
    series.push({ label: `visible under "${profile}"`, cls: "bar-visible" });
  legend(chart, series, { "bar-visible": hatch });
  const max = Math.max(1, ...rows.map((r) => r.tokens));
  let y = 30;
  for (const row of rows) {
    const name = row.server.length > 24 ? `${row.server.slice(0, 23)}…` : row.server;
    chart.append(svg("text", { x: 0, y: y + BAR - 3, class: "label" }, name));
    const tools = row.tools.length;
    bar(chart, {
      y,
      value: row.tokens,
      max,
      cls: "bar-all",
      text: `${fmt(row.tokens)} tokens · ${fmt(tools)} ${tools === 1 ? "tool" : "tools"}`,
    });
    y += BAR + 4;
    if (row.split) {
      bar(chart, {
        y,
        value: row.visibleTokens,
        max,
        cls: "bar-visible",
        fill: hatch,
        text: `${fmt(row.visibleTokens)} visible (−${fmt(row.tokens - row.visibleTokens)} hidden by the profile)`,
      });
      y += BAR + 8;
    } else y += 4;
  }
  return chart;
}

/** A small line of latencies (oldest first), with its range in the accessible name. */
export function sparkline(values) {
  const width = 96;
  const height = 22;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points = values.map(
    (v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`,
  );
  const low = Math.min(...values);
  const chart = svg("svg", {
    role: "img",
    class: "sparkline",
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    "aria-label": `latency of the last ${values.length} calls: ${fmt(low)} to ${fmt(max)} ms`,
  });
  if (values.length === 1) chart.append(svg("circle", { cx: 2, cy: height / 2, r: 2 }));
  else chart.append(svg("polyline", { points: points.join(" ") }));
  return chart;
}
